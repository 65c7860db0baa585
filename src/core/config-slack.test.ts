import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { ConfigError } from './config-error.js';
import { resolvePaths, type Paths } from './paths.js';
import { clearSecrets, redact } from './redact.js';

const BOT = 'xoxb-1111-2222-fakeBotTokenValue';
const APP = 'xapp-1-A111-2222-fakeAppTokenValue';
let dir: string;
let paths: Paths;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cc-linker-config-slack-'));
  paths = resolvePaths({ HOME: dir, CC_LINKER_HOME: path.join(dir, 'cch') });
  await fs.mkdir(paths.home, { recursive: true });
});
afterEach(async () => {
  clearSecrets();
  await fs.rm(dir, { recursive: true, force: true });
});

const write = (text: string) => fs.writeFile(paths.configFile, text);

describe('[slack] config', () => {
  it('is off by default and points at the public Web API', async () => {
    const { config } = await loadConfig({ paths, env: {} });
    expect(config.slack).toEqual({
      enabled: false,
      bot_token: '',
      app_token: '',
      owner_user_id: '',
      allow_auto_bind_owner: false,
      api_url: 'https://slack.com/api/',
    });
  });

  it('takes both tokens and the owner from the environment over the file, and registers both tokens as secrets', async () => {
    await write('[slack]\nenabled = true\nbot_token = "xoxb-file-token-aaaa"\nowner_user_id = "U0FILE"\n');
    const { config } = await loadConfig({
      paths,
      env: { CC_LINKER_SLACK_BOT_TOKEN: BOT, CC_LINKER_SLACK_APP_TOKEN: APP, CC_LINKER_SLACK_OWNER_USER_ID: 'U0OWNER' },
    });
    expect(config.slack.enabled).toBe(true);
    expect(config.slack.bot_token).toBe(BOT);
    expect(config.slack.app_token).toBe(APP);
    expect(config.slack.owner_user_id).toBe('U0OWNER');
    expect(redact(`Authorization: Bearer ${BOT} / ${APP}`)).toBe('Authorization: Bearer *** / ***');
  });

  it.each([
    ['owner_user_id = "@me"', 'slack.owner_user_id', 'member id'],
    ['bot_token = "xapp-not-a-bot-token"', 'slack.bot_token', 'xoxb-'],
    ['app_token = "xoxb-not-an-app-token"', 'slack.app_token', 'xapp-'],
    ['api_url = "https://slack.com/api"', 'slack.api_url', 'ending in /'],
    ['api_url = "slack.com/api/"', 'slack.api_url', 'http://'],
  ])('refuses %s with the key and what is expected, never echoing a token', async (line, key, expected) => {
    await write(`[slack]\n${line}\n`);
    const err = await loadConfig({ paths, env: {} }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as ConfigError).userMessage;
    expect(message).toContain(key);
    expect(message).toContain(expected);
    expect(message).not.toContain('not-a-bot-token');
    expect(message).not.toContain('not-an-app-token');
  });
});
