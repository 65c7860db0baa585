/**
 * Security review, check 1 (config errors): a broken config.toml whose bad value IS a secret, read
 * by the real CLI (`cc-linker doctor` / `status` / `start`) with secrets also in the environment. The one-line
 * error names the file and the key and stays useful, but never shows a secret.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSecrets, plantSecrets, secretEnv } from './secrets.js';
import { runCli } from './system-run.js';

const s = plantSecrets();
let root: string;

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-sec-config-')));
});
afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

/** Writes `toml` as the config of a fresh home and runs `cc-linker <args>` there. */
async function withConfig(name: string, toml: string, args: string[] = ['doctor']) {
  // Without CC_LINKER_FEISHU_APP_SECRET, which would override (and so hide) the broken file value.
  const { CC_LINKER_FEISHU_APP_SECRET: _shadow, ...environment } = secretEnv(s);
  const home = path.join(root, name);
  const ccHome = path.join(home, '.cc-linker');
  fs.mkdirSync(ccHome, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(ccHome, 'config.toml'), toml, { mode: 0o600 });
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    CC_LINKER_HOME: ccHome,
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    ...environment,
  };
  return runCli(args, env, 25_000);
}

describe('config errors never show a secret', () => {
  const cases: Array<{ name: string; toml: string; key: RegExp; code?: number }> = [
    {
      name: 'app-secret-wrong-type',
      toml: `[feishu_bot]\napp_secret = ["${s.feishuSecretInFile}"]\n`,
      key: /feishu_bot\.app_secret/,
      code: 78,
    },
    { name: 'web-token-wrong-type', toml: `[web]\ntoken = { value = "${s.webToken}" }\n`, key: /web\.token/, code: 78 },
    {
      name: 'proxy-token-wrong-type',
      toml: `[cli_proxy]\ntoken = ["${s.cliProxyToken}"]\n`,
      key: /cli_proxy\.token/,
      code: 78,
    },
    {
      name: 'unterminated-secret',
      toml: `[feishu_bot]\napp_id = "cli_0123456789abcdef"\napp_secret = "${s.feishuSecretInFile}\nowner_open_id = "ou_x"\n`,
      key: /invalid TOML|line 3/i,
      code: 78,
    },
    { name: 'secret-as-bare-value', toml: `[web]\ntoken = ${s.webToken}\n`, key: /invalid TOML|line 2/i, code: 78 },
    {
      name: 'misspelt-secret-key',
      toml: `[feishu_bot]\napp_secrte = "${s.feishuSecretInFile}"\n\n[web]\ntokn = "${s.webToken}"\n`,
      key: /app_secrte/,
    },
    {
      name: 'key-in-api-key-env',
      toml: `[ccexec.providers.openai]\nkind = "openai"\nmodel = "gpt-4o-mini"\napi_key_env = 42\n\n[feishu_bot]\napp_secret = "${s.feishuSecretInFile}"\n`,
      key: /api_key_env/,
      code: 78,
    },
  ];

  for (const c of cases) {
    it(`${c.name}: one clear line naming the key, no secret`, async () => {
      // doctor reports a config it cannot use as a failed check (exit 1); any other command stops (78).
      const r = await withConfig(c.name, c.toml);
      if (c.code !== undefined) expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toMatch(c.key);
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(findSecrets(r.stdout + r.stderr, s)).toEqual([]);
      if (c.code === undefined) return;
      const status = await withConfig(`${c.name}-status`, c.toml, ['status']);
      expect(status.code).toBe(c.code);
      expect(status.stderr).toMatch(c.key);
      expect(status.stderr).not.toMatch(/\n\s+at /);
      expect(findSecrets(status.stdout + status.stderr, s)).toEqual([]);
    });
  }

  it('start with a broken config fails the same way, and writes no secret into the log', async () => {
    const r = await withConfig(
      'start-broken',
      `[general]\nlog_level = "debug"\n\n[feishu_bot]\napp_secret = ["${s.feishuSecretInFile}"]\n`,
      ['start', '--no-feishu', '--port', '0'],
    );
    expect(r.code).toBe(78);
    expect(findSecrets(r.stdout + r.stderr, s)).toEqual([]);
    const log = path.join(root, 'start-broken', '.cc-linker', 'cc-linker.log');
    if (fs.existsSync(log)) expect(findSecrets(fs.readFileSync(log, 'utf8'), s)).toEqual([]);
  });
});
