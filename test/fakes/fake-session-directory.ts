import type { SessionDirectory, SessionView } from '../../src/bridge/commands/command-context.js';

/** Builds a registry session with sensible defaults; override any field. */
export function fakeSession(uuid: string, over: Partial<SessionView> = {}): SessionView {
  return {
    uuid,
    agent: 'claude',
    origin: 'cli',
    cwd: '/tmp/project',
    project_name: 'project',
    jsonl_path: `/tmp/.claude/projects/-tmp-project/${uuid}.jsonl`,
    project_dir: '-tmp-project',
    created_at: '2026-05-01T00:00:00.000Z',
    last_active: '2026-05-05T10:00:00.000Z',
    title: `Session ${uuid.slice(0, 4)}`,
    message_count: 10,
    last_message_preview: '',
    status: 'active',
    ...over,
  };
}

/**
 * An in-memory `SessionDirectory`: prefix resolution by `startsWith`, search as a case-insensitive
 * substring of title, previews and project name (the registry search's fields).
 */
export class FakeSessionDirectory implements SessionDirectory {
  readonly sessions = new Map<string, SessionView>();

  constructor(sessions: SessionView[] = []) {
    for (const s of sessions) this.sessions.set(s.uuid, s);
  }

  async list(): Promise<SessionView[]> {
    return [...this.sessions.values()];
  }

  async get(uuid: string): Promise<SessionView | null> {
    return this.sessions.get(uuid) ?? null;
  }

  async resolvePrefix(prefix: string): Promise<SessionView[]> {
    return [...this.sessions.values()].filter((s) => s.uuid.startsWith(prefix));
  }

  async search(keyword: string): Promise<SessionView[]> {
    const k = keyword.toLowerCase();
    return [...this.sessions.values()].filter((s) =>
      [s.title, s.last_user_preview, s.last_assistant_preview, s.last_message_preview, s.project_name].some(
        (f) => typeof f === 'string' && f.toLowerCase().includes(k),
      ),
    );
  }
}
