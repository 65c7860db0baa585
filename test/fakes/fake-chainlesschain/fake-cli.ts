import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Test helpers around the fake ChainlessChain CLI (`chainlesschain.mjs` beside this file): a temp
 * HOME seeded with data, and the argv prefix that runs the fake the way config `[ccexec] cli` would.
 */

/** The fake's entry script, run as `node <script> …`. */
export const FAKE_CLI_SCRIPT = fileURLToPath(new URL('./chainlesschain.mjs', import.meta.url));
/** The `#!/usr/bin/env node` wrapper, run directly like the real `chainlesschain` bin. */
export const FAKE_CLI_BIN = fileURLToPath(new URL('./chainlesschain', import.meta.url));

export type FakeNote = {
  id: string;
  title: string;
  content?: string;
  tags?: string[];
  category?: string;
  created_at: string;
  deleted_at?: string;
};
export type FakeMemory = { id: string; content: string; category: string; importance: number; created_at: string };
export type FakeSkill = {
  name: string;
  category: string;
  description?: string;
  source?: string;
  runnable?: boolean;
  tags?: string[];
};
export type FakeSession = { id: string; title: string; message_count: number; updated_at: string; summary?: string };
export type FakeMcpServer = { name: string; command: string; args?: string[]; autoConnect?: boolean };
export type FakeDid = {
  did: string;
  display_name: string | null;
  public_key: string;
  is_default: 0 | 1;
  did_document?: Record<string, unknown>;
  created_at: string;
};

/** What `fake-data.json` holds; every list may be left out (empty). */
export type FakeData = {
  notes?: FakeNote[];
  memory?: FakeMemory[];
  skills?: FakeSkill[];
  sessions?: FakeSession[];
  mcpServers?: FakeMcpServer[];
  dids?: FakeDid[];
};

/** A realistic data set with CJK text: two notes about RAG, one about the gateway, skills, a DID. */
export const SAMPLE_DATA: FakeData = {
  notes: [
    {
      id: 'd4f00559-9d26-42cf-b666-33a796817eb4',
      title: 'Gateway design',
      content: 'cc_exec allowlist notes about gateway',
      tags: ['design', 'gateway'],
      category: 'general',
      created_at: '2026-11-30 09:21:49',
    },
    {
      id: '7a1c2e90-5b44-4c1d-9e0f-1a2b3c4d5e6f',
      title: 'RAG 检索增强笔记',
      content: 'RAG = 检索增强生成。先用 BM25 召回，再向量重排。',
      tags: ['rag', 'ai'],
      category: 'ai',
      created_at: '2026-11-29 20:00:00',
    },
    {
      id: '9b925725-0c1d-4e2f-8a3b-4c5d6e7f8091',
      title: '购物清单 Shopping',
      content: '牛奶、鸡蛋',
      tags: [],
      category: 'life',
      created_at: '2026-11-28 08:00:00',
    },
  ],
  memory: [
    {
      id: 'mem-17960305',
      content: '记住 gateway 的设计',
      category: 'general',
      importance: 3,
      created_at: '2026-11-30 09:22:12',
    },
  ],
  skills: [
    { name: 'note-summarizer', category: '知识管理', description: '总结笔记', source: 'bundled', runnable: true },
    { name: 'code-review', category: 'development', description: 'Review a diff', source: 'bundled', runnable: false },
  ],
  sessions: [
    {
      id: 'sess-20261130-0001',
      title: '周报讨论',
      message_count: 12,
      updated_at: '2026-11-30 08:00:00',
      summary: '讨论了周报格式',
    },
  ],
  mcpServers: [],
  dids: [
    {
      did: 'did:chainless:z6MkfakeDid0001',
      display_name: '我的身份',
      public_key: 'ed25519:abcdef0123456789',
      is_default: 1,
      did_document: { id: 'did:chainless:z6MkfakeDid0001' },
      created_at: '2026-11-01 10:00:00',
    },
  ],
};

/** A temp HOME for one test, with the fake's data file and the argv prefix to run it. */
export type FakeCliHome = {
  readonly home: string;
  readonly dataFile: string;
  /** `[node, chainlesschain.mjs]`: the `[ccexec] cli` value for the fake. */
  readonly cli: string[];
  /** A minimal parent environment: PATH, HOME, LANG. Add FAKE_CC_* switches as needed. */
  readonly env: NodeJS.ProcessEnv;
  readData(): FakeData;
  writeData(data: FakeData): void;
  cleanup(): void;
};

/** Creates a temp HOME (seeded with `data` when given) for the fake CLI; call `cleanup()` after. */
export function createFakeCliHome(data?: FakeData): FakeCliHome {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-fake-cc-'));
  const dataFile = path.join(home, '.config', 'chainlesschain', 'fake-data.json');
  const writeData = (d: FakeData): void => {
    fs.mkdirSync(path.dirname(dataFile), { recursive: true });
    fs.writeFileSync(dataFile, JSON.stringify(d, null, 2));
  };
  if (data) writeData(data);
  return {
    home,
    dataFile,
    cli: [process.execPath, FAKE_CLI_SCRIPT],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8' },
    readData: () => (fs.existsSync(dataFile) ? (JSON.parse(fs.readFileSync(dataFile, 'utf8')) as FakeData) : {}),
    writeData,
    cleanup: () => fs.rmSync(home, { recursive: true, force: true }),
  };
}

/** True while `pid` runs; an exited process not yet reaped (a zombie under a container init) is not running. */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
  try {
    return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return process.platform !== 'linux';
  }
}

/**
 * A private copy of the fake (the script and its `#!/usr/bin/env node` wrapper) in `dir`, so a test
 * may touch, grow or replace "the installed CLI" without changing the shared one.
 */
export function copyFakeCli(dir: string): { readonly script: string; readonly bin: string } {
  fs.mkdirSync(dir, { recursive: true });
  const script = path.join(dir, 'chainlesschain.mjs');
  const bin = path.join(dir, 'chainlesschain');
  fs.copyFileSync(FAKE_CLI_SCRIPT, script);
  fs.copyFileSync(FAKE_CLI_BIN, bin);
  fs.chmodSync(bin, 0o755);
  return { script, bin };
}
