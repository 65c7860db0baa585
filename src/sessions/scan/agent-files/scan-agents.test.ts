import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AGENT_IDS,
  agentDirsIn,
  geminiLines,
  writeAgentTrees,
  writeCodexSession,
  writeFile,
  writeGeminiSession,
  writeOpencodeDb,
  writeQwenSession,
} from '../../../../test/fixtures/agent-trees.js';
import { codexReader } from './codex-sessions.js';
import { geminiReader } from './gemini-sessions.js';
import { opencodeReader } from './opencode-sessions.js';
import { qwenReader } from './qwen-sessions.js';
import { agentsCacheFile, agentsStamp, scanAgents } from './scan-agents.js';
import type { AgentReader } from './agent-reader.js';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const MAX = 100 * 1024 * 1024;
let tmp: string;
let home: string;
let dirs: ReturnType<typeof agentDirsIn>;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-agents-')));
  home = path.join(tmp, 'home');
  dirs = agentDirsIn(home);
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const statOf = (file: string) => fs.statSync(file);
const read = (reader: AgentReader, file: string, maxLineBytes?: number) =>
  reader.read(file, statOf(file), { maxFileSize: MAX, ...(maxLineBytes ? { maxLineBytes } : {}) });
const spec = (id: string, turns: [string, string][] = [['hello there', 'hi, how can I help?']]) => ({
  id,
  cwd: '/w/app',
  start: new Date('2026-05-30T10:00:00.000Z'),
  turns,
});

describe('scanAgents over every agent', () => {
  it('finds one session per agent with its facts; Gemini empty extras, older copies and OpenCode sub-sessions left out', async () => {
    const files = await writeAgentTrees(home, NOW);
    const scan = await scanAgents({ dirs, maxFileSize: MAX });
    expect(scan.warnings).toEqual([]);
    const byAgent = Object.fromEntries(scan.sessions.map((s) => [s.agent, s.session]));
    expect(Object.keys(byAgent).sort()).toEqual(['codex', 'gemini', 'opencode', 'qwen']);
    expect(byAgent.codex).toMatchObject({
      sessionId: AGENT_IDS.codex,
      jsonlPath: files.codex,
      cwd: '/work/codex-app',
      firstPrompt: 'fix the flaky codex test',
      messageCount: 4,
      lastUserPreview: 'run it again',
      lastAssistantPreview: 'All 12 tests pass now.',
      lastMessagePreview: 'All 12 tests pass now.',
      createdAt: '2026-06-01T11:10:00.000Z',
      lastActive: '2026-06-01T11:11:30.000Z',
      health: 'ok',
    });
    expect(byAgent.gemini).toMatchObject({
      sessionId: AGENT_IDS.gemini,
      jsonlPath: files.gemini,
      cwd: '/work/gemini-site',
      projectDir: 'gemini-site',
      firstPrompt: 'describe the gemini layout',
      messageCount: 2,
    });
    expect(byAgent.qwen).toMatchObject({
      sessionId: AGENT_IDS.qwen,
      cwd: '/work/qwen-tool',
      messageCount: 2,
      lastAssistantPreview: 'There are three files.',
    });
    expect(byAgent.opencode).toMatchObject({
      sessionId: AGENT_IDS.opencode,
      jsonlPath: files.opencode,
      cwd: '/work/opencode-api',
      title: 'OpenCode API refactor',
      messageCount: 2,
      lastUserPreview: 'split the opencode router',
      createdAt: '2026-06-01T11:40:00.000Z',
    });
    expect(scan.sessions.map((s) => s.session.sessionId)).not.toContain(AGENT_IDS.geminiEmpty);
    expect(scan.sessions.map((s) => s.session.sessionId)).not.toContain(AGENT_IDS.opencodeChild);
  });

  it('finds nothing, and says nothing, when no agent ever ran', async () => {
    const scan = await scanAgents({ dirs, maxFileSize: MAX });
    expect(scan).toMatchObject({ sessions: [], warnings: [], kept: [], stats: { files: 0, read: 0, cached: 0 } });
  });

  it('reads unchanged files from the cache and only changed ones again; the stamp follows the files', async () => {
    const files = await writeAgentTrees(home, NOW);
    const cacheFile = agentsCacheFile(path.join(tmp, 'scan-cache.json'));
    const first = await scanAgents({ dirs, maxFileSize: MAX, cacheFile });
    await first.cacheWritten;
    expect(first.stats).toEqual({ files: 6, read: 6, cached: 0 });
    expect(agentsStamp(dirs)).toBe(first.stamp);
    const again = await scanAgents({ dirs, maxFileSize: MAX, cacheFile });
    expect(again.stats).toEqual({ files: 6, read: 0, cached: 6 });
    expect(again.sessions).toEqual(first.sessions);
    fs.appendFileSync(
      files.qwen,
      `${JSON.stringify({ sessionId: AGENT_IDS.qwen, type: 'user', timestamp: NOW.toISOString(), message: { parts: [{ text: 'one more' }] } })}\n`,
    );
    expect(agentsStamp(dirs)).not.toBe(first.stamp);
    const changed = await scanAgents({ dirs, maxFileSize: MAX, cacheFile });
    await changed.cacheWritten;
    expect(changed.stats).toEqual({ files: 6, read: 1, cached: 5 });
    expect(changed.sessions.find((s) => s.agent === 'qwen')?.session.lastUserPreview).toBe('one more');
    // init reads everything again.
    const full = await scanAgents({ dirs, maxFileSize: MAX, cacheFile, incremental: false });
    await full.cacheWritten;
    expect(full.stats.read).toBe(6);
  });

  it('a Gemini projects.json change gives the cwd without a re-read (and changes the stamp)', async () => {
    const file = writeGeminiSession(dirs.geminiHome, spec(AGENT_IDS.gemini), 'app');
    const cacheFile = path.join(tmp, 'agents.json');
    const first = await scanAgents({ dirs, maxFileSize: MAX, cacheFile });
    await first.cacheWritten;
    expect(first.sessions[0]?.session.cwd).toBe('/w/app');
    fs.writeFileSync(path.join(dirs.geminiHome, 'projects.json'), JSON.stringify({ projects: { '/w/moved': 'app' } }));
    const again = await scanAgents({ dirs, maxFileSize: MAX, cacheFile });
    await again.cacheWritten;
    expect(again.stats.read).toBe(0);
    expect(again.sessions[0]?.session).toMatchObject({ cwd: '/w/moved', jsonlPath: file });
    expect(again.stamp).not.toBe(first.stamp);
  });

  it('keeps (never judges) a file over max_file_size and a directory it cannot list', async () => {
    const file = writeCodexSession(dirs.codexHome, spec(AGENT_IDS.codex));
    const scan = await scanAgents({ dirs, maxFileSize: 10 });
    expect(scan.sessions).toEqual([]);
    expect(scan.kept).toEqual([file]);
    expect(scan.warnings).toEqual([{ code: 'too_large', file, detail: fs.statSync(file).size }]);
    if (process.getuid?.() === 0) return; // root reads any directory
    const chats = path.dirname(writeQwenSession(dirs.qwenHome, spec(AGENT_IDS.qwen)));
    fs.chmodSync(chats, 0o000);
    try {
      const locked = await scanAgents({ dirs, maxFileSize: MAX });
      expect(locked.kept).toContain(chats);
      expect(locked.warnings).toContainEqual({ code: 'unreadable_dir', file: chats, detail: 'EACCES' });
    } finally {
      fs.chmodSync(chats, 0o700);
    }
  });
});

describe('codex reader', () => {
  it('a garbage file is a corrupted session (id from its name) with a not_jsonl warning', async () => {
    const file = writeFile(
      path.join(dirs.codexHome, 'sessions', '2026', '05', '30', `rollout-2026-05-30T10-00-00-${AGENT_IDS.codex}.jsonl`),
      '\x00\x01 not json\nstill not\n',
    );
    const r = await read(codexReader, file);
    expect(r.sessions).toMatchObject([{ sessionId: AGENT_IDS.codex, health: 'corrupted', problem: 'not JSONL' }]);
    expect(r.warnings).toEqual([{ code: 'not_jsonl', file }]);
  });

  it('a truncated last line (still being written) is no warning; an over-long line is skipped and reported', async () => {
    const file = writeCodexSession(dirs.codexHome, spec(AGENT_IDS.codex));
    fs.appendFileSync(file, '{"timestamp":"2026-05-30T10:09:00.000Z","type":"event_msg","payload":{"type":"user_mess');
    expect((await read(codexReader, file)).warnings).toEqual([]);
    const huge = JSON.stringify({
      type: 'event_msg',
      payload: { type: 'agent_message', message: 'x'.repeat(3 * 1024 * 1024) },
    });
    const big = writeCodexSession(dirs.codexHome, { ...spec(AGENT_IDS.codex.replace('7f3a', '7f3b')) });
    fs.appendFileSync(big, `${huge}\n`);
    const r = await read(codexReader, big, 1024 * 1024);
    expect(r.warnings).toEqual([{ code: 'long_lines', file: big, detail: 1 }]);
    expect(r.sessions[0]?.messageCount).toBe(2);
  });

  it('a file with no session id in it nor in its name is skipped with a warning', async () => {
    const file = writeFile(
      path.join(dirs.codexHome, 'sessions', '2026', '05', '30', 'rollout-odd.jsonl'),
      '{"type":"x"}\n',
    );
    expect(await read(codexReader, file)).toEqual({ sessions: [], warnings: [{ code: 'no_session_id', file }] });
  });

  it('gives the prompts and answers in order', async () => {
    const file = writeCodexSession(
      dirs.codexHome,
      spec(AGENT_IDS.codex, [
        ['a', 'b'],
        ['c', 'd'],
      ]),
    );
    const t = await codexReader.transcript(file, AGENT_IDS.codex, {});
    expect(t.map((m) => `${m.role}:${m.text}`)).toEqual(['user:a', 'assistant:b', 'user:c', 'assistant:d']);
  });
});

describe('gemini reader', () => {
  it('an empty extra session is not a session; $set.messages resets the list; a rewritten message counts once', async () => {
    const empty = writeGeminiSession(dirs.geminiHome, spec(AGENT_IDS.geminiEmpty, []), 'app');
    expect(await read(geminiReader, empty)).toEqual({ sessions: [], warnings: [] });
    const s = spec(AGENT_IDS.gemini, [
      ['first', 'one'],
      ['second', 'two'],
    ]);
    const lines = [
      ...geminiLines(s),
      { id: `${s.id}-g1`, type: 'gemini', content: 'two, rewritten', timestamp: '2026-05-30T10:02:00.000Z' },
    ];
    const file = writeGeminiSession(dirs.geminiHome, s, 'app', lines);
    expect((await read(geminiReader, file)).sessions[0]).toMatchObject({
      messageCount: 4,
      lastAssistantPreview: 'two, rewritten',
    });
    const reset = [...lines, { $set: { messages: [{ id: 'n1', type: 'user', content: 'after reset' }] } }];
    const file2 = writeGeminiSession(dirs.geminiHome, s, 'app', reset);
    expect((await read(geminiReader, file2)).sessions[0]).toMatchObject({
      messageCount: 1,
      firstPrompt: 'after reset',
      lastAssistantPreview: '',
    });
    expect((await geminiReader.transcript(file2, s.id, {})).map((m) => m.text)).toEqual(['after reset']);
  });

  it('a reset to no message leaves no session; garbage is skipped with a warning', async () => {
    const s = spec(AGENT_IDS.gemini);
    const file = writeGeminiSession(dirs.geminiHome, s, 'app', [...geminiLines(s), { $set: { messages: [] } }]);
    expect((await read(geminiReader, file)).sessions).toEqual([]);
    const junk = writeFile(path.join(dirs.geminiHome, 'tmp', 'app', 'chats', 'session-junk.jsonl'), 'garbage\n');
    expect(await read(geminiReader, junk)).toEqual({ sessions: [], warnings: [{ code: 'not_jsonl', file: junk }] });
  });

  it('finds the cwd of a directory named by the sha256 of the cwd (older CLIs); none without projects.json', async () => {
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256').update('/w/app').digest('hex');
    const file = writeGeminiSession(dirs.geminiHome, spec(AGENT_IDS.gemini), hash);
    fs.writeFileSync(path.join(dirs.geminiHome, 'projects.json'), JSON.stringify({ projects: { '/w/app': 'app' } }));
    expect((await scanAgents({ dirs, maxFileSize: MAX })).sessions[0]?.session).toMatchObject({ cwd: '/w/app' });
    fs.rmSync(path.join(dirs.geminiHome, 'projects.json'));
    expect((await scanAgents({ dirs, maxFileSize: MAX })).sessions[0]?.session).toMatchObject({
      cwd: null,
      jsonlPath: file,
    });
  });

  it('the same session in two files: the most recently modified wins', async () => {
    const s = spec(AGENT_IDS.gemini, [['old', 'old answer']]);
    const old = writeGeminiSession(dirs.geminiHome, s, 'app');
    fs.renameSync(old, old.replace('.jsonl', '-a.jsonl'));
    fs.utimesSync(old.replace('.jsonl', '-a.jsonl'), new Date(2000), new Date(2000));
    writeGeminiSession(dirs.geminiHome, { ...s, turns: [['new', 'new answer']] }, 'app');
    const scan = await scanAgents({ dirs, maxFileSize: MAX });
    expect(scan.sessions).toHaveLength(1);
    expect(scan.sessions[0]?.session.firstPrompt).toBe('new');
  });
});

describe('qwen reader', () => {
  it('counts prompts and answers, not tool results or telemetry; the id comes from the lines when the name is not one', async () => {
    const file = writeQwenSession(
      dirs.qwenHome,
      spec(AGENT_IDS.qwen, [
        ['a', 'b'],
        ['c', 'd'],
      ]),
    );
    expect((await read(qwenReader, file)).sessions[0]).toMatchObject({ sessionId: AGENT_IDS.qwen, messageCount: 4 });
    const renamed = path.join(path.dirname(file), 'not an id.jsonl');
    fs.renameSync(file, renamed);
    expect((await read(qwenReader, renamed)).sessions[0]?.sessionId).toBe(AGENT_IDS.qwen);
    expect((await qwenReader.transcript(renamed, AGENT_IDS.qwen, {})).map((m) => m.text)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('an empty file is a session with no message; garbage is corrupted', async () => {
    const dir = path.join(dirs.qwenHome, 'projects', '-w-app', 'chats');
    const empty = writeFile(path.join(dir, `${AGENT_IDS.qwen}.jsonl`), '');
    expect((await read(qwenReader, empty)).sessions[0]).toMatchObject({ messageCount: 0, health: 'ok' });
    fs.writeFileSync(empty, 'nope\n');
    expect((await read(qwenReader, empty)).sessions[0]).toMatchObject({ health: 'corrupted', problem: 'not JSONL' });
  });
});

describe('opencode reader', () => {
  it('a garbage or truncated database is a warning and keeps its sessions, never an error', async () => {
    const file = writeFile(path.join(dirs.opencodeDataDir, 'opencode.db'), 'this is not sqlite at all, just text');
    const r = await read(opencodeReader, file);
    expect(r.sessions).toEqual([]);
    expect(r.unreadable).toBe(true);
    expect(r.warnings).toMatchObject([{ code: 'unreadable_db', file }]);
    const good = await writeOpencodeDb(dirs.opencodeDataDir, [{ ...spec('ses_a1'), title: 'T' }]);
    fs.truncateSync(good, 100);
    const cut = await scanAgents({ dirs, maxFileSize: MAX });
    expect(cut.kept).toEqual([good]);
    expect(cut.warnings).toMatchObject([{ code: 'unreadable_db', file: good }]);
  });

  it('a database without a session table is a warning', async () => {
    const file = await writeOpencodeDb(dirs.opencodeDataDir, []);
    const initSqlJs = (await import('sql.js')).default;
    const SQL = await initSqlJs();
    const db = new SQL.Database(fs.readFileSync(file));
    db.run('DROP TABLE session');
    fs.writeFileSync(file, db.export());
    db.close();
    expect(await read(opencodeReader, file)).toMatchObject({
      sessions: [],
      unreadable: true,
      warnings: [{ code: 'unreadable_db', file, detail: 'no session table' }],
    });
  });

  it('reads a WAL-mode database without writing it, and the transcript in order', async () => {
    const file = await writeOpencodeDb(dirs.opencodeDataDir, [
      {
        ...spec('ses_a1', [
          ['p1', 'a1'],
          ['p2', 'a2'],
        ]),
        title: 'T',
      },
    ]);
    const bytes = fs.readFileSync(file);
    bytes[18] = bytes[19] = 2; // what OpenCode's own database says: WAL mode
    fs.writeFileSync(file, bytes);
    fs.chmodSync(file, 0o400);
    const before = fs.readFileSync(file);
    const r = await read(opencodeReader, file);
    expect(r.sessions[0]).toMatchObject({ sessionId: 'ses_a1', messageCount: 4, lastMessagePreview: 'a2' });
    expect((await opencodeReader.transcript(file, 'ses_a1', {})).map((m) => `${m.role}:${m.text}`)).toEqual([
      'user:p1',
      'assistant:a1',
      'user:p2',
      'assistant:a2',
    ]);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.readdirSync(dirs.opencodeDataDir)).toEqual(['opencode.db']);
  });

  it('without message tables, lists the sessions with no counts and a warning', async () => {
    const file = await writeOpencodeDb(dirs.opencodeDataDir, [{ ...spec('ses_a1'), title: 'T' }]);
    const SQL = await (await import('sql.js')).default();
    const db = new SQL.Database(fs.readFileSync(file));
    db.run('DROP TABLE part');
    fs.writeFileSync(file, db.export());
    db.close();
    const r = await read(opencodeReader, file);
    expect(r.sessions[0]).toMatchObject({ sessionId: 'ses_a1', messageCount: 0, title: 'T' });
    expect(r.warnings).toMatchObject([{ code: 'unreadable_db', file }]);
  });
});
