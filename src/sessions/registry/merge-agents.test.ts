import { describe, expect, it } from 'vitest';
import { blankSession, type ScannedSession } from '../scan/scanned-session.js';
import { mergeRegistry, MISSING_FILE_ERROR } from './merge-registry.js';
import type { AgentScannedSession } from '../scan/agent-files/scan-agents.js';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const NO_CLAUDE = { sessions: [], unscannedIds: [], unlistedDirs: [] };

const session = (id: string, file: string, over: Partial<ScannedSession> = {}): ScannedSession => ({
  ...blankSession(file, 10, 1),
  sessionId: id,
  projectDir: '',
  cwd: '/w/app',
  firstPrompt: 'hello',
  messageCount: 2,
  createdAt: '2026-06-01T11:00:00.000Z',
  lastActive: '2026-06-01T11:30:00.000Z',
  ...over,
});
const agents = (sessions: AgentScannedSession[], kept: string[] = []) => ({
  sessions,
  agents: ['codex', 'gemini', 'qwen', 'opencode'] as AgentScannedSession['agent'][],
  kept,
});

describe('mergeRegistry with the other agents', () => {
  it('adds each agent’s sessions with their agent, counted per agent apart from Claude’s', () => {
    const { registry, stats } = mergeRegistry(null, NO_CLAUDE, [], [], NOW, {
      ...agents([
        { agent: 'codex', session: session('c1', '/h/.codex/sessions/r.jsonl') },
        { agent: 'opencode', session: session('ses_1', '/h/db') },
        { agent: 'opencode', session: session('ses_2', '/h/db') },
      ]),
      agents: ['codex', 'opencode'],
    });
    expect(registry.sessions.c1).toMatchObject({ agent: 'codex', origin: 'cli', project_dir: null, title: 'hello' });
    expect(registry.sessions.ses_2).toMatchObject({ agent: 'opencode', jsonl_path: '/h/db', status: 'active' });
    expect(stats).toMatchObject({ scanned: 0, others: { codex: 1, opencode: 2 }, added: 3, total: 3 });
  });

  it('an agent session gone from its scan is corrupted; one whose file was not judged, or of an agent not scanned, is kept', () => {
    const before = mergeRegistry(null, NO_CLAUDE, [], [], NOW, {
      ...agents([
        { agent: 'codex', session: session('c1', '/h/a.jsonl') },
        { agent: 'qwen', session: session('q1', '/h/q/b.jsonl') },
        { agent: 'gemini', session: session('g1', '/h/g.jsonl') },
      ]),
    }).registry;
    const after = mergeRegistry(before, NO_CLAUDE, [], [], NOW, {
      sessions: [],
      agents: ['codex', 'qwen'],
      kept: ['/h/q'],
    }).registry;
    expect(after.sessions.c1).toMatchObject({ status: 'corrupted', last_error: MISSING_FILE_ERROR });
    expect(after.sessions.q1).toEqual(before.sessions.q1);
    expect(after.sessions.g1).toEqual(before.sessions.g1);
    // A merge without the agents' scan (repair) keeps them all, and a Claude scan never judges them.
    expect(mergeRegistry(before, NO_CLAUDE, [], [], NOW).registry.sessions).toEqual(before.sessions);
  });

  it('never lets another agent take over an id a session already holds', () => {
    const first = mergeRegistry(
      null,
      { ...NO_CLAUDE, sessions: [session('same', '/c/projects/-w/same.jsonl')] },
      [],
      [],
      NOW,
      agents([{ agent: 'codex', session: session('same', '/h/other.jsonl') }]),
    ).registry;
    expect(first.sessions.same).toMatchObject({ agent: 'claude', jsonl_path: '/c/projects/-w/same.jsonl' });
  });
});
