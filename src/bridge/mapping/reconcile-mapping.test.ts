import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { reconcileMapping, type RegistryView } from './reconcile-mapping.js';
import type { SpoolRecord } from '../spool/spool-record.js';
import { Spool } from '../spool/spool.js';
import { UserMapping } from './user-mapping.js';

let dir: string;
let spool: Spool;
let mapping: UserMapping;
const U = 'ou_owner';
const NOW = Date.parse('2026-05-05T12:00:00Z');

function registry(
  sessions: Record<string, { status: string; createdAt: string; cwd: string; userId?: string }>,
): RegistryView {
  return {
    get: async (id) => {
      const s = sessions[id];
      return s
        ? { status: s.status, origin: 'feishu', feishuUserId: s.userId ?? U, createdAt: s.createdAt, cwd: s.cwd }
        : null;
    },
    recentChatSessions: async (userId, since) =>
      Object.entries(sessions)
        .filter(([, s]) => (s.userId ?? U) === userId && Date.parse(s.createdAt) >= since)
        .map(([sessionId, s]) => ({ sessionId, status: s.status, cwd: s.cwd, createdAt: s.createdAt })),
  };
}

function record(id: string, extra: Partial<SpoolRecord> = {}): SpoolRecord {
  return {
    schema: 1,
    message: {
      id,
      channel: 'feishu',
      platformMessageId: id,
      userId: U,
      chatId: 'c',
      chatType: 'p2p',
      text: 'hi',
      images: [],
      receivedAt: '2026-05-05T11:00:00Z',
    },
    target: { kind: 'new', cwd: '/w/a' },
    acceptedAt: '2026-05-05T11:00:00Z',
    seq: 1,
    attempts: 0,
    ...extra,
  };
}

const run = (reg: RegistryView) =>
  reconcileMapping({
    mapping,
    spool,
    registry: reg,
    logger: silentLogger,
    now: NOW,
    staleClaimMs: 30 * 60_000,
    recentMs: 24 * 3_600_000,
  });

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-reconcile-'));
  spool = new Spool(path.join(dir, 'spool'));
  await spool.init();
  mapping = new UserMapping(path.join(dir, 'user-mapping.json'), { now: () => new Date(NOW - 3_600_000) });
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

describe('reconcileMapping', () => {
  it('never takes a claim away from a message still in progress, however old', async () => {
    await mapping.setPendingNew(U, { cwd: '/w/a' });
    await mapping.claimForMessage(U, 'm1');
    await spool.enqueue(record('m1'));
    const r = await reconcileMapping({
      mapping,
      spool,
      registry: registry({}),
      logger: silentLogger,
      now: NOW + 5 * 3_600_000,
      staleClaimMs: 30 * 60_000,
      recentMs: 0,
    });
    expect(r.rolledBackClaims).toBe(0);
    expect(await mapping.get(U)).toMatchObject({ type: 'pending_new_session_claimed', claimedByMessageId: 'm1' });
  });

  it('rolls back a claim whose message is gone, so the user can retry', async () => {
    await mapping.setPendingNew(U, { cwd: '/w/a' });
    await mapping.claimForMessage(U, 'm1');
    const r = await run(registry({}));
    expect(r.rolledBackClaims).toBe(1);
    expect(await mapping.get(U)).toMatchObject({ type: 'pending_new_session', cwd: '/w/a' });
  });

  it('completes a claim whose finished run already knew its session id', async () => {
    await mapping.setPendingNew(U, { cwd: '/w/a' });
    await mapping.claimForMessage(U, 'm1');
    await spool.enqueue(record('m1', { sessionId: 'sess-1' }));
    await spool.move('m1', 'pending', 'processing');
    await spool.move('m1', 'processing', 'done');
    const r = await run(registry({ 'sess-1': { status: 'active', createdAt: '2026-05-05T11:00:00Z', cwd: '/w/a' } }));
    expect(r.completedClaims).toBe(1);
    expect(await mapping.get(U)).toMatchObject({ type: 'session', sessionUuid: 'sess-1' });
  });

  it('turns a mapping to an unknown session into a pending new session in the same directory', async () => {
    await mapping.setSession(U, { sessionUuid: 'gone', cwd: '/w/b' });
    const r = await run(registry({}));
    expect(r.droppedMissingSessions).toBe(1);
    expect(await mapping.get(U)).toMatchObject({ type: 'pending_new_session', cwd: '/w/b' });
  });

  it('rule 1: restores the one recent chat session the mapping missed', async () => {
    await mapping.bindOwner(U);
    const r = await run(
      registry({ 'sess-9': { status: 'provisioning', createdAt: '2026-05-05T11:30:00Z', cwd: '/w/c' } }),
    );
    expect(r.restoredSessions).toBe(1);
    expect(await mapping.get(U)).toMatchObject({ type: 'session', sessionUuid: 'sess-9', cwd: '/w/c' });
  });

  it('rule 2: with several candidates it switches nothing and reports the user', async () => {
    await mapping.bindOwner(U);
    const r = await run(
      registry({
        a: { status: 'provisioning', createdAt: '2026-05-05T11:30:00Z', cwd: '/w/c' },
        b: { status: 'degraded', createdAt: '2026-05-05T11:40:00Z', cwd: '/w/d' },
      }),
    );
    expect(r.restoredSessions).toBe(0);
    expect(r.ambiguous).toEqual([U]);
    expect(await mapping.get(U)).toBeNull();
  });

  it('keeps a pending slot the user chose after the candidate session was created', async () => {
    mapping = new UserMapping(path.join(dir, 'user-mapping.json'), { now: () => new Date(NOW - 60_000) });
    await mapping.setPendingNew(U, { cwd: '/w/new' });
    const r = await run(registry({ old: { status: 'provisioning', createdAt: '2026-05-05T11:00:00Z', cwd: '/w/c' } }));
    expect(r.restoredSessions).toBe(0);
    expect(await mapping.get(U)).toMatchObject({ type: 'pending_new_session', cwd: '/w/new' });
  });
});
