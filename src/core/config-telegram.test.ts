import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { ConfigError } from './config-error.js';
import { resolvePaths, type Paths } from './paths.js';
import { clearSecrets, redact } from './redact.js';

const TOKEN = '123456789:AAH-fake_token_value_0123456789';
let dir: string;
let paths: Paths;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cc-linker-config-tg-'));
  paths = resolvePaths({ HOME: dir, CC_LINKER_HOME: path.join(dir, 'cch') });
  await fs.mkdir(paths.home, { recursive: true });
});
afterEach(async () => {
  clearSecrets();
  await fs.rm(dir, { recursive: true, force: true });
});

const write = (text: string) => fs.writeFile(paths.configFile, text);

describe('[telegram] config', () => {
  it('is off by default and points at the public Bot API', async () => {
    const { config } = await loadConfig({ paths, env: {} });
    expect(config.telegram).toEqual({
      enabled: false,
      bot_token: '',
      owner_user_id: '',
      allow_auto_bind_owner: false,
      api_root: 'https://api.telegram.org',
      webhook_url: '',
      webhook_listen: '127.0.0.1:8443',
      webhook_secret: '',
    });
  });

  it('takes the token and owner from the environment over the file, and registers the token as a secret', async () => {
    await write('[telegram]\nenabled = true\nbot_token = "1:file_token_aaaaaaaaaaaaaaaaaaaa"\nowner_user_id = "1"\n');
    const { config } = await loadConfig({
      paths,
      env: { CC_LINKER_TELEGRAM_BOT_TOKEN: TOKEN, CC_LINKER_TELEGRAM_OWNER_USER_ID: '4242' },
    });
    expect(config.telegram.enabled).toBe(true);
    expect(config.telegram.bot_token).toBe(TOKEN);
    expect(config.telegram.owner_user_id).toBe('4242');
    expect(redact(`POST https://api.telegram.org/bot${TOKEN}/getMe`)).toBe(
      'POST https://api.telegram.org/bot***/getMe',
    );
  });

  it.each([
    ['owner_user_id = "@me"', 'telegram.owner_user_id', 'numeric Telegram user id'],
    ['bot_token = "not a token"', 'telegram.bot_token', '@BotFather'],
    ['api_root = "https://api.telegram.org/"', 'telegram.api_root', 'trailing slash'],
    ['api_root = "api.telegram.org"', 'telegram.api_root', 'http://'],
  ])('refuses %s with the key and what is expected, never echoing a token', async (line, key, expected) => {
    await write(`[telegram]\n${line}\n`);
    const err = await loadConfig({ paths, env: {} }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as ConfigError).userMessage;
    expect(message).toContain(key);
    expect(message).toContain(expected);
    expect(message).not.toContain('not a token');
  });
});
