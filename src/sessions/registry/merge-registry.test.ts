import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeRegistry, MISSING_FILE_ERROR, type MergeScan } from './merge-registry.js';
import { REGISTRY_SCHEMA, type Registry, type SessionEntry } from './registry-schema.js';
import type { ScannedSession } from '../scan/scanned-session.js';
import type { DiscoveryEvent } from '../hook/session-events.js';
import type { MappedSession } from './mapped-session.js';

const NOW = new Date('2026-06-01T00:00:00.000Z');
const DAY = 86_400_000;
const ids = ['a1', 'b2', 'c3', 'd4', 'e5', 'f6'];
const iso = (daysAgo: number) => new Date(NOW.getTime() - daysAgo * DAY).toISOString();

const scannedArb: fc.Arbitrary<ScannedSession> = fc
  .record({
    sessionId: fc.constantFrom(...ids),
    cwd: fc.option(fc.constantFrom('/w/a', '/w/a-b', '/w/a/b', '/w/项目'), { nil: null }),
    title: fc.option(fc.string({ maxLength: 8 }), { nil: null }),
    firstPrompt: fc.option(fc.string({ maxLength: 8 }), { nil: null }),
    messageCount: fc.nat(50),
    daysAgo: fc.integer({ min: 0, max: 90 }),
    health: fc.constantFrom('ok', 'ok', 'ok', 'corrupted') as fc.Arbitrary<'ok' | 'corrupted'>,
    model: fc.option(fc.constantFrom('claude-sonnet-4-5', 'claude-opus-4'), { nil: null }),
  })
  .map((r) => ({
    sessionId: r.sessionId,
    jsonlPath: `/c/projects/x/${r.sessionId}.jsonl`,
    projectDir: 'x',
    cwd: r.cwd,
    title: r.title,
    firstPrompt: r.firstPrompt,
    messageCount: r.messageCount,
    lastMessagePreview: 'p',
    lastUserPreview: 'u',
    lastAssistantPreview: 'a',
    createdAt: iso(r.daysAgo + 1),
    lastActive: iso(r.daysAgo),
    model: r.model,
    size: 10,
    mtimeMs: 1,
    health: r.health,
    problem: r.health === 'corrupted' ? 'not JSONL' : null,
  }));

const entryArb: fc.Arbitrary<SessionEntry> = fc
  .record({
    origin: fc.constantFrom('cli', 'feishu') as fc.Arbitrary<'cli' | 'feishu'>,
    hasPath: fc.boolean(),
    status: fc.constantFrom('provisioning', 'active', 'archived', 'degraded', 'corrupted') as fc.Arbitrary<
      SessionEntry['status']
    >,
    feishuUser: fc.option(fc.constantFrom('ou_1', 'ou_2'), { nil: undefined }),
    feishuSession: fc.option(fc.constantFrom('fs_1'), { nil: undefined }),
    provider: fc.option(fc.constantFrom('claude-x'), { nil: undefined }),
    lastError: fc.option(fc.constantFrom('boom'), { nil: undefined }),
    daysAgo: fc.integer({ min: 0, max: 90 }),
    extra: fc.boolean(),
  })
  .map((r) => ({
    agent: 'claude' as const,
    origin: r.origin,
    cwd: '/w/old',
    project_name: 'old',
    jsonl_path: r.hasPath ? '/c/projects/x/placeholder.jsonl' : null,
    project_dir: 'x',
    created_at: iso(r.daysAgo + 2),
    last_active: iso(r.daysAgo),
    title: 'old title',
    message_count: 1,
    last_message_preview: '',
    status: r.status,
    ...(r.feishuUser ? { feishu_user_id: r.feishuUser } : {}),
    ...(r.feishuSession ? { feishu_session_id: r.feishuSession } : {}),
    ...(r.provider ? { lastKnownProvider: r.provider } : {}),
    ...(r.lastError ? { last_error: r.lastError } : {}),
    ...(r.extra ? { future_field: { kept: true } } : {}),
  }));

const registryArb: fc.Arbitrary<Registry | null> = fc.option(
  fc.dictionary(fc.constantFrom(...ids), entryArb).map((sessions) => {
    // give every entry with a path its own file name
    const fixed: Record<string, SessionEntry> = {};
    for (const [id, e] of Object.entries(sessions))
      fixed[id] = e.jsonl_path ? { ...e, jsonl_path: `/c/projects/x/${id}.jsonl` } : e;
    return { version: REGISTRY_SCHEMA, updated_at: iso(5), sessions: fixed } as Registry;
  }),
  { nil: null },
);

const scanArb: fc.Arbitrary<MergeScan> = fc.record({
  sessions: fc.uniqueArray(scannedArb, { selector: (s) => s.sessionId, maxLength: 6 }),
  unscannedIds: fc.subarray(ids, { maxLength: 2 }),
  unlistedDirs: fc.constantFrom([], ['/c/projects/x']),
});
const eventsArb: fc.Arbitrary<DiscoveryEvent[]> = fc.array(
  fc.record({
    session_id: fc.constantFrom(...ids, 'new1'),
    cwd: fc.option(fc.constant('/w/e'), { nil: null }),
    transcript_path: fc.constant(null),
    source: fc.constant('startup'),
    time: fc.integer({ min: 0, max: 40 }).map(iso),
  }),
  { maxLength: 4 },
);
const mappingArb: fc.Arbitrary<MappedSession[]> = fc.array(
  fc.record({
    sessionId: fc.constantFrom(...ids, 'new2'),
    openId: fc.constantFrom('ou_1', 'ou_9', 'web:owner'),
    origin: fc.constantFrom('feishu', null) as fc.Arbitrary<'feishu' | null>,
    cwd: fc.option(fc.constant('/w/m'), { nil: null }),
    provider: fc.option(fc.constant('claude-m'), { nil: null }),
    createdAt: fc.constant(iso(1)),
  }),
  { maxLength: 3 },
);

describe('mergeRegistry (property)', () => {
  it('is a fixed point: merging the same inputs again changes nothing, with or without the consumed events', () => {
    fc.assert(
      fc.property(registryArb, scanArb, eventsArb, mappingArb, (existing, scan, events, mapping) => {
        const once = mergeRegistry(existing, scan, events, mapping, NOW).registry;
        const twice = mergeRegistry(once, scan, events, mapping, NOW).registry;
        expect(twice.sessions).toEqual(once.sessions);
        const afterConsume = mergeRegistry(once, scan, [], mapping, NOW).registry;
        expect(afterConsume.sessions).toEqual(once.sessions);
      }),
      { numRuns: 1000 },
    );
  });

  it('never drops a session and preserves every enrichment', () => {
    fc.assert(
      fc.property(registryArb, scanArb, eventsArb, mappingArb, (existing, scan, events, mapping) => {
        const { registry } = mergeRegistry(existing, scan, events, mapping, NOW);
        for (const s of scan.sessions) expect(registry.sessions[s.sessionId]).toBeDefined();
        for (const [id, before] of Object.entries(existing?.sessions ?? {})) {
          const after = registry.sessions[id];
          expect(after).toBeDefined();
          if (!after) continue;
          if (before.origin !== 'cli') expect(after.origin).toBe(before.origin);
          if (before.feishu_user_id) expect(after.feishu_user_id).toBe(before.feishu_user_id);
          if (before.feishu_session_id) expect(after.feishu_session_id).toBe(before.feishu_session_id);
          if (before.lastKnownProvider) expect(after.lastKnownProvider).toBe(before.lastKnownProvider);
          if ('future_field' in before)
            expect((after as unknown as Record<string, unknown>).future_field).toEqual({ kept: true });
          const scanned = scan.sessions.find((s) => s.sessionId === id);
          if (!scanned && before.jsonl_path === null)
            expect(after.status).toBe(
              before.status === 'archived' || before.status === 'active' ? after.status : before.status,
            );
          if (before.last_error && !scanned && before.jsonl_path === null)
            expect(after.last_error).toBe(before.last_error);
        }
        for (const m of mapping) {
          const e = registry.sessions[m.sessionId];
          if (e && m.origin === 'feishu') expect(e.origin).not.toBe('cli');
          // A session new to the registry takes its origin from the first chat user mapped to it.
          const first = mapping.find((x) => x.sessionId === m.sessionId && x.origin === 'feishu');
          if (e && first === m && existing?.sessions[m.sessionId] === undefined)
            expect(e.origin).toBe(m.openId.startsWith('web') ? 'web' : 'feishu');
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('mergeRegistry (rules)', () => {
  const scanned = (over: Partial<ScannedSession> = {}): ScannedSession => ({
    sessionId: 's1',
    jsonlPath: '/c/projects/-w-a/s1.jsonl',
    projectDir: '-w-a',
    cwd: '/w/a',
    title: null,
    firstPrompt: 'hello',
    messageCount: 2,
    lastMessagePreview: 'hi',
    lastUserPreview: 'hello',
    lastAssistantPreview: 'hi',
    createdAt: iso(2),
    lastActive: iso(1),
    model: 'claude-sonnet-4-5',
    size: 1,
    mtimeMs: 1,
    health: 'ok',
    problem: null,
    ...over,
  });
  const scanOf = (...sessions: ScannedSession[]): MergeScan => ({ sessions, unscannedIds: [], unlistedDirs: [] });

  it('builds a v6 entry from a scan: title falls back to the first prompt, project name from cwd', () => {
    const { registry, stats } = mergeRegistry(null, scanOf(scanned()), [], [], NOW);
    expect(registry.version).toBe(6);
    expect(registry.sessions.s1).toEqual({
      agent: 'claude',
      origin: 'cli',
      cwd: '/w/a',
      project_name: 'a',
      jsonl_path: '/c/projects/-w-a/s1.jsonl',
      project_dir: '-w-a',
      created_at: iso(2),
      last_active: iso(1),
      title: 'hello',
      message_count: 2,
      last_message_preview: 'hi',
      last_user_preview: 'hello',
      last_assistant_preview: 'hi',
      lastKnownProvider: 'claude-sonnet-4-5',
      status: 'active',
    });
    expect(stats).toEqual({ scanned: 1, feishu: 0, added: 1, missing: 0, total: 1 });
  });

  it('archives after 30 idle days and reactivates on new activity', () => {
    const old = mergeRegistry(null, scanOf(scanned({ lastActive: iso(31) })), [], [], NOW).registry;
    expect(old.sessions.s1?.status).toBe('archived');
    const again = mergeRegistry(old, scanOf(scanned({ lastActive: iso(0) })), [], [], NOW).registry;
    expect(again.sessions.s1?.status).toBe('active');
  });

  it('turns a provisioning entry active when its file appears, clearing the pending error', () => {
    const existing: Registry = {
      version: 6,
      updated_at: iso(1),
      sessions: {
        s1: {
          agent: 'claude',
          origin: 'feishu',
          cwd: '/w/a',
          project_name: 'a',
          jsonl_path: null,
          project_dir: '-w-a',
          pending_jsonl_resolve: true,
          last_error: 'jsonl not found',
          feishu_user_id: 'ou_1',
          created_at: iso(1),
          last_active: iso(1),
          title: null,
          message_count: 0,
          last_message_preview: '',
          status: 'provisioning',
        },
      },
    };
    const kept = mergeRegistry(existing, scanOf(), [], [], NOW).registry.sessions.s1;
    expect(kept?.status).toBe('provisioning');
    const s1 = mergeRegistry(existing, scanOf(scanned()), [], [], NOW).registry.sessions.s1;
    expect(s1).toMatchObject({
      origin: 'feishu',
      feishu_user_id: 'ou_1',
      status: 'active',
      last_error: null,
      jsonl_path: '/c/projects/-w-a/s1.jsonl',
    });
    expect(s1?.pending_jsonl_resolve).toBeUndefined();
  });

  it('marks an entry whose file vanished corrupted, but keeps entries it could not judge', () => {
    const first = mergeRegistry(
      null,
      scanOf(scanned(), scanned({ sessionId: 's2', jsonlPath: '/c/projects/-w-a/s2.jsonl' })),
      [],
      [],
      NOW,
    ).registry;
    const gone = mergeRegistry(first, scanOf(), [], [], NOW);
    expect(gone.registry.sessions.s1).toMatchObject({ status: 'corrupted', last_error: MISSING_FILE_ERROR });
    expect(gone.stats.missing).toBe(2);
    const tooLarge = mergeRegistry(
      first,
      { sessions: [], unscannedIds: ['s1'], unlistedDirs: ['/c/projects/-w-a'] },
      [],
      [],
      NOW,
    ).registry;
    expect(tooLarge.sessions.s1?.status).toBe('active');
    expect(tooLarge.sessions.s2?.status).toBe('active');
  });

  it('keeps a degraded entry degraded unless the scan fixed its missing file', () => {
    const base = mergeRegistry(null, scanOf(scanned()), [], [], NOW).registry;
    const degraded: Registry = {
      ...base,
      sessions: { s1: { ...(base.sessions.s1 as SessionEntry), status: 'degraded', last_error: 'mapping mismatch' } },
    };
    expect(mergeRegistry(degraded, scanOf(scanned()), [], [], NOW).registry.sessions.s1).toMatchObject({
      status: 'degraded',
      last_error: 'mapping mismatch',
    });
  });

  it('adds a provisioning entry for a discovery event of an unknown session', () => {
    const ev: DiscoveryEvent = {
      session_id: 'new',
      cwd: '/w/z',
      transcript_path: null,
      source: 'startup',
      time: iso(0),
    };
    const s = mergeRegistry(null, scanOf(), [ev], [], NOW).registry.sessions.new;
    expect(s).toMatchObject({
      status: 'provisioning',
      jsonl_path: null,
      pending_jsonl_resolve: true,
      cwd: '/w/z',
      project_dir: '-w-z',
      origin: 'cli',
    });
  });

  it('restores Feishu origin from the mapping', () => {
    const { registry, stats } = mergeRegistry(
      null,
      scanOf(scanned()),
      [],
      [{ sessionId: 's1', openId: 'ou_7', origin: 'feishu', cwd: '/w/a', provider: 'opus', createdAt: null }],
      NOW,
    );
    expect(registry.sessions.s1).toMatchObject({
      origin: 'feishu',
      feishu_user_id: 'ou_7',
      lastKnownProvider: 'claude-sonnet-4-5',
    });
    expect(stats.feishu).toBe(1);
  });

  it('a mapped session of the web console’s user is web-origin, and stays so at the next rescan', () => {
    const mapping = [
      { sessionId: 's1', openId: 'web:owner', origin: 'feishu' as const, cwd: '/w/a', provider: null, createdAt: null },
    ];
    const once = mergeRegistry(null, scanOf(scanned()), [], mapping, NOW);
    expect(once.registry.sessions.s1).toMatchObject({ origin: 'web', feishu_user_id: 'web:owner' });
    expect(once.stats.feishu).toBe(0);
    const again = mergeRegistry(once.registry, scanOf(scanned()), [], [], NOW);
    expect(again.registry.sessions.s1?.origin).toBe('web');
  });
});
