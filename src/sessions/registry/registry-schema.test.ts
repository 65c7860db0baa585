import { describe, expect, it } from 'vitest';
import { checkRegistry } from './registry-schema.js';

const v4Entry = {
  origin: 'feishu',
  cwd: '/w/a',
  project_name: 'a',
  jsonl_path: '/c/projects/-w-a/x.jsonl',
  project_dir: '-w-a',
  created_at: '2026-05-01T00:00:00.000Z',
  last_active: '2026-05-02T00:00:00.000Z',
  title: 'T',
  message_count: 3,
  last_message_preview: 'p',
  future_field: { kept: true },
};

describe('registry schema v5 (agent)', () => {
  it('migrates a v4 file on read: every entry is Claude Code’s, unknown fields kept', () => {
    const r = checkRegistry({ version: 4, updated_at: 'u', sessions: { x: { ...v4Entry } }, extra_top: 1 });
    expect(r).toMatchObject({ ok: true, dropped: [] });
    if (!r.ok) return;
    expect(r.registry.version).toBe(6);
    expect(r.registry.sessions.x).toEqual({ ...v4Entry, agent: 'claude' });
    expect((r.registry as unknown as { extra_top: number }).extra_top).toBe(1);
  });

  it('a v4 entry that claims another agent is still Claude Code’s (v4 knew no other)', () => {
    const r = checkRegistry({ version: 4, updated_at: 'u', sessions: { x: { ...v4Entry, agent: 'codex' } } });
    expect(r.ok && r.registry.sessions.x?.agent).toBe('claude');
  });

  it('reads each agent of a v5 file (a configured one too); a missing agent is Claude Code; a malformed one drops the entry and says so', () => {
    const sessions = {
      a: { ...v4Entry, agent: 'codex' },
      b: { ...v4Entry, agent: 'opencode' },
      c: { ...v4Entry },
      d: { ...v4Entry, agent: 'Not An Agent' },
      e: { ...v4Entry, agent: 7 },
      f: { ...v4Entry, agent: 'my-agent' },
    };
    const r = checkRegistry({ version: 5, updated_at: 'u', sessions });
    expect(r).toMatchObject({ ok: true, dropped: ['d', 'e'] });
    if (!r.ok) return;
    expect(Object.fromEntries(Object.entries(r.registry.sessions).map(([id, e]) => [id, e.agent]))).toEqual({
      a: 'codex',
      b: 'opencode',
      c: 'claude',
      f: 'my-agent',
    });
  });

  it('still refuses a newer version', () => {
    expect(checkRegistry({ version: 7, sessions: {} })).toEqual({ ok: false, reason: 'newer', found: 7 });
  });
});

describe('registry schema v6 (origin web)', () => {
  it('reads a v5 file: a feishu entry of the web console’s user becomes web, a Feishu user’s stays feishu', () => {
    const sessions = {
      web: { ...v4Entry, agent: 'claude', feishu_user_id: 'web:owner' },
      fs: { ...v4Entry, agent: 'claude', feishu_user_id: 'ou_123' },
      cli: { ...v4Entry, origin: 'cli', feishu_user_id: undefined },
    };
    const r = checkRegistry({ version: 5, updated_at: 'u', sessions });
    expect(r).toMatchObject({ ok: true, dropped: [] });
    if (!r.ok) return;
    expect(r.registry.version).toBe(6);
    expect(r.registry.sessions.web?.origin).toBe('web');
    expect(r.registry.sessions.fs?.origin).toBe('feishu');
    expect(r.registry.sessions.cli?.origin).toBe('cli');
  });

  it('keeps web in a v6 file; an unknown origin is read as cli', () => {
    const sessions = { a: { ...v4Entry, origin: 'web' }, b: { ...v4Entry, origin: 'telegram' } };
    const r = checkRegistry({ version: 6, updated_at: 'u', sessions });
    expect(r.ok && r.registry.sessions.a?.origin).toBe('web');
    expect(r.ok && r.registry.sessions.b?.origin).toBe('cli');
  });

  it('a v5 reader refuses a v6 file (it would rewrite web as cli)', () => {
    // The check a v5 cc-linker made is the same comparison against its own schema number.
    expect(checkRegistry({ version: 6, sessions: {} }).ok).toBe(true);
    expect(checkRegistry({ version: 7, sessions: {} })).toMatchObject({ ok: false, reason: 'newer' });
  });
});
