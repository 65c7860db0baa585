import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditLog } from '../../../ccexec/audit-log.js';
import { createGateway } from '../../../ccexec/create-gateway.js';
import { defaultConfig } from '../../../core/default-config.js';
import { silentLogger } from '../../../core/logger.js';
import { resolvePaths, type Paths } from '../../../core/paths.js';
import { consoleGatewayFrom } from './gateway-adapter.js';

describe('consoleGatewayFrom', () => {
  let dir: string;
  let paths: Paths;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-gwa-'));
    paths = resolvePaths({ HOME: dir, CC_LINKER_HOME: path.join(dir, '.cc-linker') });
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('turns "no provider configured" into a no-provider badge instead of an error', async () => {
    const config = defaultConfig();
    config.ccexec.cli = [path.join(dir, 'missing-cli')];
    config.ccexec.cwd = dir;
    const gw = consoleGatewayFrom(
      createGateway({ config, paths, env: { PATH: '/usr/bin:/bin' }, lang: 'en', logger: silentLogger }),
      paths.auditFile,
    );
    expect(gw.providers()).toEqual([]);
    const a = await gw.availability();
    expect(a.status).toBe('no-provider');
    expect(a.reason).toMatch(/ccexec\.providers/);
    expect(() => gw.newChat()).toThrow(expect.objectContaining({ code: 'CCEXEC_NO_PROVIDER' }));
  });

  it('reports a missing CLI and a plain-chat model, and lists providers without secrets', async () => {
    const config = defaultConfig();
    config.ccexec.cli = [path.join(dir, 'missing-cli')];
    config.ccexec.cwd = dir;
    config.ccexec.default_provider = 'openai';
    config.ccexec.providers = {
      openai: { kind: 'openai', base_url: 'http://127.0.0.1:9/v1', api_key_env: 'OPENAI_API_KEY', model: 'gpt-x' },
      qwen: {
        kind: 'openai-compatible',
        base_url: 'http://127.0.0.1:9/v1',
        api_key_env: 'DASHSCOPE_API_KEY',
        model: 'qwen-plus',
        tools: false,
      },
    };
    const gw = consoleGatewayFrom(
      createGateway({
        config,
        paths,
        env: { PATH: '/usr/bin:/bin', OPENAI_API_KEY: 'sk-secret-value-0123456789' },
        lang: 'en',
        logger: silentLogger,
      }),
      paths.auditFile,
    );
    expect(gw.providers()).toEqual([
      { id: 'openai', label: expect.any(String), model: 'gpt-x', tools: true },
      { id: 'qwen', label: expect.any(String), model: 'qwen-plus', tools: false },
    ]);
    expect(JSON.stringify(gw.providers())).not.toContain('sk-secret');
    expect(await gw.availability({ provider: 'openai' })).toMatchObject({
      status: 'cli-not-found',
      reason: expect.any(String),
    });
    expect(await gw.availability({ provider: 'qwen' })).toMatchObject({ status: 'no-tools-for-model' });
  });

  it('reads the audit history newest first', async () => {
    const log = createAuditLog(paths.auditFile);
    for (const [i, cmd] of ['note', 'search', 'skill'].entries()) {
      await log.append(
        {
          callId: `k${i}`,
          name: 'cc_exec',
          argv: [cmd, 'list'],
          decision: 'allowed',
          exitCode: 0,
          durationMs: i,
          stdout: 'x',
        },
        { provider: 'openai', model: 'm', chat: 'c', time: new Date(Date.UTC(2026, 0, 1, 0, i)) },
      );
    }
    const gw = consoleGatewayFrom(
      createGateway({ config: defaultConfig(), paths, env: {}, lang: 'en', logger: silentLogger }),
      paths.auditFile,
    );
    const records = await gw.audit(2);
    expect(records.map((r) => r.command)).toEqual(['skill', 'search']);
    expect(records[0]).toMatchObject({ args: ['list'], decision: 'allowed', exit: 0 });
  });
});
