/**
 * The registry across agents through the built binary (`dist/cli/launcher/cc-linker.js`): a HOME
 * with Claude Code's sessions and Codex's, Gemini CLI's, Qwen Code's and OpenCode's
 * (test/fixtures/agent-trees.ts), then init, list (--agent, --json), show, search, export, resume
 * and sync as a user runs them. Skipped (and says so) when the program is not built.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCaseTree } from '../fixtures/claude-case-tree.js';
import { AGENT_IDS, agentDirsIn, writeAgentTrees, writeCodexSession } from '../fixtures/agent-trees.js';

const MAIN = path.resolve(__dirname, '..', '..', 'dist', 'cli', 'launcher', 'cc-linker.js');
const built = fs.existsSync(MAIN);

let tmp: string;
let home: string;
let env: NodeJS.ProcessEnv;
let files: Awaited<ReturnType<typeof writeAgentTrees>>;
const run = (...args: string[]) =>
  spawnSync(process.execPath, [MAIN, ...args], { env, encoding: 'utf8', timeout: 30_000 });
const json = (...args: string[]) => {
  const r = run(...args);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Array<Record<string, unknown>>;
};

beforeAll(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-agents-e2e-')));
  home = path.join(tmp, 'home');
  env = {
    PATH: process.env.PATH,
    HOME: home,
    CC_LINKER_HOME: path.join(home, '.cc-linker'),
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
  };
  writeCaseTree(path.join(home, '.claude'), new Date());
  files = await writeAgentTrees(home, new Date());
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.skipIf(!built)('built CLI: sessions of every agent', () => {
  it('init registers every agent’s sessions; list --json names the agent of each', () => {
    const init = run('init');
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/找到其他 agent 的会话：1 codex, 1 gemini, 1 qwen, 1 opencode/);
    expect(init.stdout).toContain('共登记 18 个会话');
    const all = json('list', '--json', '--limit', '100');
    expect(all).toHaveLength(18);
    const agents = all.map((s) => s.agent);
    expect(agents.filter((a) => a === 'claude')).toHaveLength(14);
    for (const agent of ['codex', 'gemini', 'qwen', 'opencode']) expect(agents).toContain(agent);
    expect(all.find((s) => s.session_id === AGENT_IDS.opencode)).toMatchObject({
      agent: 'opencode',
      cwd: '/work/opencode-api',
      title: 'OpenCode API refactor',
      jsonl_path: files.opencode,
      message_count: 2,
    });
  });

  it('list --agent filters, and shows the agent; an unknown agent is a one-line error listing the known ones', () => {
    const codex = run('list', '--agent', 'codex');
    expect(codex.status).toBe(0);
    expect(codex.stdout).toContain('（共 1 个）');
    expect(codex.stdout).toContain('fix the flaky codex test');
    expect(codex.stdout).toMatch(/\[Codex\] 终端 \| 4条/);
    expect(json('list', '--agent', 'claude', '--json', '--limit', '100')).toHaveLength(14);
    const bad = run('list', '--agent', 'cursor');
    expect(bad.status).toBe(64);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('未知的 agent：cursor，可用的有 claude, codex, gemini, qwen, opencode');
  });

  it('show and search work for another agent’s session', () => {
    const show = run('show', AGENT_IDS.qwen.slice(0, 8));
    expect(show.status).toBe(0);
    expect(show.stdout).toMatch(/Agent:\s+Qwen/);
    expect(show.stdout).toContain('/work/qwen-tool');
    expect(json('show', AGENT_IDS.gemini, '--json')).toMatchObject({ agent: 'gemini', cwd: '/work/gemini-site' });
    const meta = json('search', 'opencode', '--json');
    expect(meta.map((h) => h.session_id)).toContain(AGENT_IDS.opencode);
    // Content only (not in any title or preview): the Codex session's first answer.
    const content = json('search', 'await the event', '--content', '--json');
    expect(content.map((h) => [h.session_id, h.agent])).toEqual([[AGENT_IDS.codex, 'codex']]);
  });

  it('export reads each agent’s own transcript format: prompts and answers in order', () => {
    const gemini = run('export', AGENT_IDS.gemini, '--format', 'text');
    expect(gemini.status, gemini.stderr).toBe(0);
    expect(gemini.stdout).toContain('Agent: gemini');
    const body = gemini.stdout.slice(gemini.stdout.indexOf('Messages: 2'));
    const order = ['describe the gemini layout', 'It has a header, a grid and a footer.'].map((t) => body.indexOf(t));
    expect(order[0]).toBeGreaterThan(0);
    expect(order[1]).toBeGreaterThan(order[0] as number);
    const opencode = JSON.parse(run('export', AGENT_IDS.opencode, '--format', 'json').stdout) as {
      agent: string;
      messages: Array<{ role: string; text: string }>;
    };
    expect(opencode.agent).toBe('opencode');
    expect(opencode.messages.map((m) => `${m.role}:${m.text}`)).toEqual([
      'user:split the opencode router',
      'assistant:Done: three routers, one per resource.',
    ]);
    const codex = JSON.parse(run('export', AGENT_IDS.codex, '--format', 'json').stdout) as { messages: unknown[] };
    expect(codex.messages).toHaveLength(4);
  });

  it('resume prints each agent’s own command; --exec is refused for another agent with the command to run', () => {
    const cases: Array<[string, string]> = [
      [AGENT_IDS.codex, `cd /work/codex-app && codex resume ${AGENT_IDS.codex}`],
      [AGENT_IDS.gemini, `cd /work/gemini-site && gemini --resume ${AGENT_IDS.gemini}`],
      [AGENT_IDS.qwen, `cd /work/qwen-tool && qwen --resume ${AGENT_IDS.qwen}`],
      [AGENT_IDS.opencode, `cd /work/opencode-api && opencode --session ${AGENT_IDS.opencode}`],
    ];
    for (const [id, command] of cases) {
      const r = run('resume', id.slice(0, 10));
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain(command);
    }
    const exec = run('resume', AGENT_IDS.codex, '--exec');
    expect(exec.status).toBe(64);
    expect(exec.stderr).toContain(`codex resume ${AGENT_IDS.codex}`);
    expect(exec.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('sync picks up a changed agent file and a new one; an unchanged sync reads nothing', () => {
    const quiet = JSON.parse(run('sync', '--json').stdout) as { agents_read: number; total: number };
    expect(quiet).toMatchObject({ agents_read: 0, total: 18 });
    fs.appendFileSync(
      files.codex,
      `${JSON.stringify({ timestamp: new Date().toISOString(), type: 'event_msg', payload: { type: 'user_message', message: 'and one more thing' } })}\n`,
    );
    const newId = '019a0c1e-7f3a-7b21-9c4d-00000000beef';
    writeCodexSession(agentDirsIn(home).codexHome, {
      id: newId,
      cwd: '/work/other',
      start: new Date(),
      turns: [['new', 'ok']],
    });
    const changed = JSON.parse(run('sync', '--json').stdout) as { agents_read: number; agents_cached: number };
    expect(changed).toMatchObject({ agents_read: 2, agents_cached: 5 });
    const codex = json('list', '--agent', 'codex', '--json');
    expect(codex.map((s) => s.session_id).sort()).toEqual([AGENT_IDS.codex, newId].sort());
    expect(codex.find((s) => s.session_id === AGENT_IDS.codex)).toMatchObject({
      message_count: 5,
      last_user_preview: 'and one more thing',
    });
  });

  it('CODEX_HOME moves where Codex sessions are read; a vanished session is marked, not dropped', () => {
    const elsewhere = path.join(tmp, 'codex-elsewhere');
    const id = '019a0c1e-7f3a-7b21-9c4d-0000000c0de5';
    writeCodexSession(elsewhere, { id, cwd: '/work/moved', start: new Date(), turns: [['moved', 'yes']] });
    const moved = { ...env, CODEX_HOME: elsewhere };
    const r = spawnSync(process.execPath, [MAIN, 'sync'], { env: moved, encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    const list = spawnSync(process.execPath, [MAIN, 'list', '--agent', 'codex', '--json'], {
      env: moved,
      encoding: 'utf8',
      timeout: 30_000,
    });
    const sessions = JSON.parse(list.stdout) as Array<Record<string, unknown>>;
    expect(sessions.find((s) => s.session_id === id)).toMatchObject({ status: 'active', cwd: '/work/moved' });
    expect(sessions.find((s) => s.session_id === AGENT_IDS.codex)).toMatchObject({ status: 'corrupted' });
  });
});
