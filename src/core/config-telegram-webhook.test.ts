import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { ConfigError } from './config-error.js';
import { resolvePaths, type Paths } from './paths.js';
import { clearSecrets, redact } from './redact.js';

let dir: string;
let paths: Paths;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cc-linker-config-tghook-'));
  paths = resolvePaths({ HOME: dir, CC_LINKER_HOME: path.join(dir, 'cch') });
  await fs.mkdir(paths.home, { recursive: true });
});
afterEach(async () => {
  clearSecrets();
  await fs.rm(dir, { recursive: true, force: true });
});

const write = (text: string) => fs.writeFile(paths.configFile, text);
const refusal = (env: Record<string, string> = {}) =>
  loadConfig({ paths, env }).then(
    () => null,
    (e: unknown) => e,
  );

describe('[telegram] webhook keys', () => {
  it('default to long polling on 127.0.0.1:8443 with a generated secret', async () => {
    const { config } = await loadConfig({ paths, env: {} });
    expect(config.telegram).toMatchObject({ webhook_url: '', webhook_listen: '127.0.0.1:8443', webhook_secret: '' });
  });

  it('are read from the file, the environment wins, and the secret is registered as one', async () => {
    await write(
      '[telegram]\nwebhook_url = "https://file.example/tg"\nwebhook_listen = "[::1]:9000"\nwebhook_secret = "file_secret_0123456789"\n',
    );
    const { config } = await loadConfig({
      paths,
      env: {
        CC_LINKER_TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/hook/abc',
        CC_LINKER_TELEGRAM_WEBHOOK_LISTEN: '0.0.0.0:8081',
        CC_LINKER_TELEGRAM_WEBHOOK_SECRET: 'env-Secret_0123456789',
      },
    });
    expect(config.telegram).toMatchObject({
      webhook_url: 'https://bot.example.com/hook/abc',
      webhook_listen: '0.0.0.0:8081',
      webhook_secret: 'env-Secret_0123456789',
    });
    expect(redact('header env-Secret_0123456789')).toBe('header ***');
  });

  it.each([
    ['webhook_url = "http://bot.example.com/hook"', 'telegram.webhook_url', 'https://'],
    ['webhook_url = "bot.example.com/hook"', 'telegram.webhook_url', 'Telegram accepts only HTTPS'],
    ['webhook_listen = "8443"', 'telegram.webhook_listen', 'host:port'],
    ['webhook_listen = "127.0.0.1:70000"', 'telegram.webhook_listen', 'port 1-65535'],
    ['webhook_listen = "127.0.0.1:0"', 'telegram.webhook_listen', 'port 1-65535'],
    ['webhook_secret = "has space and ünicode"', 'telegram.webhook_secret', 'letters, digits, _ or -'],
  ])('refuses %s with the key and what is expected', async (line, key, expected) => {
    await write(`[telegram]\n${line}\n`);
    const err = await refusal();
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as ConfigError).userMessage;
    expect(message).toContain(key);
    expect(message).toContain(expected);
  });

  it('refuses a plain-http URL from the environment too, naming the variable', async () => {
    const err = await refusal({ CC_LINKER_TELEGRAM_WEBHOOK_URL: 'http://127.0.0.1:8443/hook' });
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).userMessage).toContain('https://');
  });
});
