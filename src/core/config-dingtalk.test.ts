import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { ConfigError } from './config-error.js';
import { resolvePaths, type Paths } from './paths.js';
import { clearSecrets, redact } from './redact.js';

const SECRET = 'dt-secret-0123456789abcdefABCDEF';
let dir: string;
let paths: Paths;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cc-linker-config-dt-'));
  paths = resolvePaths({ HOME: dir, CC_LINKER_HOME: path.join(dir, 'cch') });
  await fs.mkdir(paths.home, { recursive: true });
});
afterEach(async () => {
  clearSecrets();
  await fs.rm(dir, { recursive: true, force: true });
});

const write = (text: string) => fs.writeFile(paths.configFile, text);

describe('[dingtalk] config', () => {
  it('is off by default and points at the public OpenAPI', async () => {
    const { config } = await loadConfig({ paths, env: {} });
    expect(config.dingtalk).toEqual({
      enabled: false,
      client_id: '',
      client_secret: '',
      owner_staff_id: '',
      allow_auto_bind_owner: false,
      api_base: 'https://api.dingtalk.com',
      oapi_base: 'https://oapi.dingtalk.com',
      card_template_id: '',
      card_template_key: 'content',
    });
  });

  it('takes the credentials and owner from the environment over the file, and registers the secret', async () => {
    await write('[dingtalk]\nenabled = true\nclient_id = "file-id"\nclient_secret = "file-secret-xxxxxxxx"\n');
    const { config } = await loadConfig({
      paths,
      env: {
        CC_LINKER_DINGTALK_CLIENT_ID: 'dingabc',
        CC_LINKER_DINGTALK_CLIENT_SECRET: SECRET,
        CC_LINKER_DINGTALK_OWNER_STAFF_ID: 'manager4521',
      },
    });
    expect(config.dingtalk).toMatchObject({
      enabled: true,
      client_id: 'dingabc',
      client_secret: SECRET,
      owner_staff_id: 'manager4521',
    });
    expect(redact(`clientSecret=${SECRET}`)).not.toContain(SECRET);
  });

  it.each([
    ['owner_staff_id = "a b"', 'dingtalk.owner_staff_id', 'staffId'],
    ['api_base = "https://api.dingtalk.com/"', 'dingtalk.api_base', 'trailing slash'],
    ['api_base = "api.dingtalk.com"', 'dingtalk.api_base', 'http://'],
    ['oapi_base = "https://oapi.dingtalk.com/"', 'dingtalk.oapi_base', 'trailing slash'],
    ['card_template_key = "a b"', 'dingtalk.card_template_key', 'variable name'],
    ['client_id = "ding abc"', 'dingtalk.client_id', 'Client ID'],
    ['client_secret = "pasted secret"', 'dingtalk.client_secret', 'no spaces'],
    ['card_template_id = "my template"', 'dingtalk.card_template_id', 'template id'],
  ])('refuses %s with the key and what is expected', async (line, key, expected) => {
    await write(`[dingtalk]\n${line}\n`);
    const err = await loadConfig({ paths, env: {} }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as ConfigError).userMessage;
    expect(message).toContain(key);
    expect(message).toContain(expected);
    expect(message).not.toContain('pasted secret');
  });
});
