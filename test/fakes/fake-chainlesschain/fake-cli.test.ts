import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripCliLogs } from '../../../src/ccexec/strip-cli-logs.js';
import { createFakeCliHome, SAMPLE_DATA, type FakeCliHome } from './fake-cli.js';

// The fake must behave like the real CLI 0.165.x (flags, output, log lines, exit codes), or the
// gateway's tests prove nothing about it.
let fake: FakeCliHome;
let empty: FakeCliHome;
beforeAll(() => {
  fake = createFakeCliHome(SAMPLE_DATA);
  empty = createFakeCliHome();
});
afterAll(() => {
  fake.cleanup();
  empty.cleanup();
});

function run(home: FakeCliHome, ...args: string[]) {
  const r = spawnSync(home.cli[0] as string, [...home.cli.slice(1), ...args], { env: home.env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, body: stripCliLogs(r.stdout) };
}

describe('fake chainlesschain CLI', () => {
  it('prints its version and nothing else', () => {
    expect(run(fake, '--version')).toMatchObject({ code: 0, stdout: '0.165.7\n', stderr: '' });
  });

  it('prints the database log lines (with the db path under HOME) around results, even with --json', () => {
    const r = run(fake, 'note', 'list', '--json');
    expect(r.stdout.split('\n').slice(0, 3)).toEqual([
      '[AppConfig] Configuration loaded',
      '[DatabaseManager] Using better-sqlite3-multiple-ciphers',
      `[DatabaseManager] Database initialized: ${fake.home}/.config/chainlesschain/data/chainlesschain.db`,
    ]);
    expect(r.stdout.trimEnd().endsWith('[DatabaseManager] Database closed')).toBe(true);
    const rows = JSON.parse(r.body) as Array<{ id: string; tags: string }>;
    expect(rows[0]).toEqual({
      id: 'd4f00559-9d26-42cf-b666-33a796817eb4',
      title: 'Gateway design',
      tags: '["design","gateway"]',
      category: 'general',
      created_at: '2026-11-30 09:21:49',
    });
  });

  it('shows a note by id prefix like the real one', () => {
    expect(run(fake, 'note', 'show', 'd4f0').body).toBe(
      'Gateway design\nID: d4f00559-9d26-42cf-b666-33a796817eb4\nCategory: general  Created: 2026-11-30 09:21:49\nTags: design, gateway\n\ncc_exec allowlist notes about gateway\n',
    );
    expect(run(fake, 'note', 'show', 'zzzz')).toMatchObject({ code: 1, stderr: '✖ Note not found: zzzz\n' });
  });

  it.each([
    [['note', 'list', '--lmit', '3'], "error: unknown option '--lmit'\n"],
    [['search', 'x', '--limit', '3'], "error: unknown option '--limit'\n"],
    [['skill', 'list', '--limit', '3'], "error: unknown option '--limit'\n"],
    [['note', 'list', '--json=true'], "error: unknown option '--json=true'\n"],
    [['note', 'view', 'd4f0'], "error: unknown command 'view'\n"],
    [['nope'], "error: unknown command 'nope'\n"],
    [['did', 'show'], "error: missing required argument 'did'\n"],
    [['note', 'show'], "error: missing required argument 'id'\n"],
  ])('rejects %j like commander: stderr, exit 1', (args, stderr) => {
    const r = run(fake, ...args);
    expect(r.code).toBe(1);
    expect(r.stderr.endsWith(stderr)).toBe(true);
  });

  it('accepts the real flag forms: -n 2, -n2, --limit=2; non-numeric falls back to 20', () => {
    for (const form of [['-n', '2'], ['-n2'], ['--limit=2']])
      expect(run(fake, 'note', 'list', ...form).body.startsWith('Notes (2):')).toBe(true);
    expect(run(fake, 'note', 'list', '--limit', 'abc').body.startsWith('Notes (3):')).toBe(true);
  });

  it('gives the real empty-result texts', () => {
    expect(run(empty, 'note', 'list')).toMatchObject({ code: 0, body: 'ℹ No notes found\n' });
    expect(run(empty, 'memory', 'show')).toMatchObject({
      code: 0,
      body: "ℹ No memory entries. Use 'memory add' to create one.\n",
    });
    expect(run(empty, 'memory', 'list')).toMatchObject({
      code: 0,
      body: "ℹ No memory entries. Use 'memory add' to create one.\n",
    });
    expect(run(empty, 'session', 'list')).toMatchObject({
      code: 0,
      body: "ℹ No saved sessions. Use 'chat' or 'agent' to create one.\n",
    });
    expect(run(empty, 'mcp', 'list')).toMatchObject({
      code: 0,
      body: "ℹ No MCP servers configured. Use 'mcp add' to add one.\n",
    });
    expect(run(empty, 'did', 'list').body).toBe('ℹ No DID identities. Create one with "chainlesschain did create"\n');
    const search = run(empty, 'search', 'x');
    expect(search).toMatchObject({ code: 0, body: '' });
    expect(search.stderr).toContain("No notes in knowledge base. Use 'note add' first.");
    const skills = run(empty, 'skill', 'list');
    expect(skills.code).toBe(1);
    expect(skills.stderr).toContain('No skills found');
  });

  it('ranks every note in hybrid mode, only matches in bm25 mode', () => {
    const hybrid = JSON.parse(run(fake, 'search', 'zzz-nothing', '--json').body) as unknown[];
    expect(hybrid).toHaveLength(3);
    expect(run(fake, 'search', 'zzz-nothing', '--mode', 'bm25', '--json').body.trim()).toBe('[]');
    expect(run(fake, 'search', 'RAG', '--top-k', '1').body).toMatch(
      /^Search results for "RAG" \(1, mode: hybrid\):\n\n {2}0\.\d{4} {2}7a1c2e90 {2}RAG 检索增强笔记 \[rag, ai\]\n/,
    );
  });

  it('shows memory, DIDs and status in the real shapes', () => {
    expect(run(fake, 'memory', 'show').body).toBe(
      'Memory (1 entries):\n\n  mem-17960305  ★★★☆☆  general\n    记住 gateway 的设计\n    2026-11-30 09:22:12\n',
    );
    expect(JSON.parse(run(fake, 'did', 'show', 'did:chainless:z6Mk', '--json').body)).toMatchObject({
      did: 'did:chainless:z6MkfakeDid0001',
      displayName: '我的身份',
      isDefault: true,
    });
    expect(run(fake, 'did', 'show', 'did:none')).toMatchObject({ code: 1, stderr: '✖ Identity not found: did:none\n' });
    const status = run(fake, 'status', '--json');
    expect(status.stdout).not.toContain('[AppConfig]'); // status opens no database
    expect(JSON.parse(status.stdout)).toMatchObject({
      schema: 'chainlesschain.status.v1',
      probeMode: 'quick',
      version: '0.165.7',
    });
  });

  it('really writes with its write commands (so a test can prove the gate blocks them)', () => {
    const w = createFakeCliHome(SAMPLE_DATA);
    try {
      expect(run(w, 'note', 'add', '新笔记', '-c', '内容').code).toBe(0);
      expect(run(w, 'note', 'delete', 'd4f0', '--force').code).toBe(0);
      const data = w.readData();
      expect(data.notes?.map((n) => n.title)).toContain('新笔记');
      expect(data.notes?.find((n) => n.id.startsWith('d4f0'))?.deleted_at).toBeTruthy();
    } finally {
      w.cleanup();
    }
  });
});
