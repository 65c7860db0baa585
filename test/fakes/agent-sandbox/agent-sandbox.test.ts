import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { codexAcpBinary, qwenCliScript } from './agent-binaries.js';
import { FAKE_API_KEY, QWEN_FAKE_MODEL, createAgentSandbox, type AgentSandbox } from './agent-sandbox.js';

const BASE = 'http://127.0.0.1:4321/v1';
const made: AgentSandbox[] = [];
afterEach(() => {
  for (const sb of made.splice(0)) sb.cleanup();
});
const make = (...args: Parameters<typeof createAgentSandbox>): AgentSandbox => {
  const sb = createAgentSandbox(...args);
  made.push(sb);
  return sb;
};

describe.skipIf(codexAcpBinary() === null)('createCodexSandbox', () => {
  it('writes a config.toml pointing Codex at the fake, and a minimal env', () => {
    const sb = make('codex', { baseUrl: BASE, cwdName: '项目 dir' });
    expect(Object.keys(sb.env).sort()).toEqual(['CODEX_HOME', 'FAKE_API_KEY', 'HOME', 'PATH']);
    expect(sb.env).toMatchObject({ HOME: sb.home, CODEX_HOME: join(sb.home, '.codex'), FAKE_API_KEY });
    const config = parse(readFileSync(join(sb.home, '.codex', 'config.toml'), 'utf8'));
    expect(config).toEqual({
      model: 'gpt-5.4',
      model_provider: 'fake',
      approval_policy: 'untrusted',
      sandbox_mode: 'danger-full-access',
      check_for_update_on_startup: false,
      model_providers: {
        fake: { name: 'Fake', base_url: BASE, env_key: 'FAKE_API_KEY', wire_api: 'responses' },
      },
    });
    expect(sb.command).toEqual([codexAcpBinary()]);
    expect(sb.cwd.endsWith('/项目 dir')).toBe(true);
    expect(statSync(sb.home).mode & 0o777).toBe(0o700);
    expect(sb.sessionsDir).toBe(join(sb.home, '.codex', 'sessions'));
  });
});

describe.skipIf(qwenCliScript() === null)('createQwenSandbox', () => {
  it('sets the OpenAI variables, turns usage statistics off and runs qwen --acp in default mode', () => {
    const sb = make('qwen', { baseUrl: BASE });
    expect(sb.env).toEqual({
      PATH: process.env.PATH,
      HOME: sb.home,
      OPENAI_BASE_URL: BASE,
      OPENAI_API_KEY: FAKE_API_KEY,
      OPENAI_MODEL: QWEN_FAKE_MODEL,
    });
    expect(JSON.parse(readFileSync(join(sb.home, '.qwen', 'settings.json'), 'utf8'))).toEqual({
      privacy: { usageStatisticsEnabled: false },
    });
    expect(sb.command).toEqual([process.execPath, qwenCliScript(), '--acp', '--approval-mode', 'default']);
    expect(sb.sessionsDir).toBe(join(sb.home, '.qwen', 'projects'));
  });
});

describe('sandbox guards', () => {
  it('refuses a base URL that is not on 127.0.0.1', () => {
    expect(() => createAgentSandbox('codex', { baseUrl: 'https://api.openai.com/v1' })).toThrow(
      /must be on 127\.0\.0\.1, got https:\/\/api\.openai\.com\/v1/,
    );
    expect(() => createAgentSandbox('qwen', { baseUrl: 'http://localhost:1/v1' })).toThrow(/127\.0\.0\.1/);
    expect(() => createAgentSandbox('qwen', { baseUrl: 'not a url' })).toThrow(/Invalid URL/);
  });

  it('never passes the runner environment through', () => {
    process.env.CC_LINKER_SECRET_PROBE = 'leak';
    try {
      for (const kind of ['codex', 'qwen'] as const) {
        if ((kind === 'codex' ? codexAcpBinary() : qwenCliScript()) === null) continue;
        const sb = make(kind, { baseUrl: BASE });
        expect(Object.values(sb.env)).not.toContain('leak');
      }
    } finally {
      delete process.env.CC_LINKER_SECRET_PROBE;
    }
  });

  it('removes everything on cleanup', () => {
    const sb = createAgentSandbox('qwen', { baseUrl: BASE });
    sb.cleanup();
    expect(existsSync(sb.root)).toBe(false);
  });
});
