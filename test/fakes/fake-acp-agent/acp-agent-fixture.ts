import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The fake ACP agent (a node script; see the behaviours in its header). */
export const FAKE_ACP_AGENT = fileURLToPath(new URL('./fake-acp-agent.mjs', import.meta.url));

/** One request or notification the fake received (or a grandchild it started), as it recorded it. */
export interface FakeAcpCall {
  pid: number;
  method: string;
  params: Record<string, unknown>;
}

/** A temp directory with a project cwd, a HOME and the fake's record file. */
export interface AcpAgentFixture {
  root: string;
  cwd: string;
  home: string;
  /** `[node, fake-acp-agent.mjs]`. */
  command: string[];
  /** A minimal environment for the fake; `extra` adds its FAKE_ACP_* switches. */
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
  calls(): FakeAcpCall[];
  cleanup(): void;
}

export function createAcpAgentFixture(): AcpAgentFixture {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-acp-')));
  const cwd = path.join(root, 'project');
  const home = path.join(root, 'home');
  fs.mkdirSync(cwd);
  fs.mkdirSync(home);
  const record = path.join(root, 'calls.jsonl');
  return {
    root,
    cwd,
    home,
    command: [process.execPath, FAKE_ACP_AGENT],
    env: (extra = {}) => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, FAKE_ACP_RECORD: record, ...extra }),
    calls: () =>
      fs.existsSync(record)
        ? fs
            .readFileSync(record, 'utf8')
            .split('\n')
            .filter((l) => l.length > 0)
            .map((l) => JSON.parse(l) as FakeAcpCall)
        : [],
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
