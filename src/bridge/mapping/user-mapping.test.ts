import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../store/store-error.js';
import { UserMapping, type ClaimOutcome } from './user-mapping.js';

const U = 'ou_owner';
let tmp: string;
let file: string;
let clock: Date;
let mapping: UserMapping;

beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-mapping-'));
  file = path.join(tmp, 'user-mapping.json');
  clock = new Date('2026-05-05T10:30:00Z');
  mapping = new UserMapping(file, { now: () => clock });
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

const strip = (o: ClaimOutcome) => {
  const { mappingVersion: _v, ...rest } = o;
  return rest;
};

describe('UserMapping state machine', () => {
  it('starts empty and routes plain text to nothing', async () => {
    expect(await mapping.read()).toEqual({ ownerOpenId: null, entries: {} });
    expect(strip(await mapping.claimForMessage(U, 'om_1'))).toEqual({ kind: 'none' });
    await expect(fs.stat(file)).rejects.toThrow(); // a pure read path writes nothing
  });

  it('routes to the mapped session without writing, with its default model', async () => {
    await mapping.setSession(U, { sessionUuid: 's-1', cwd: '/w/a', model: 'claude-sonnet-4-5' });
    const before = (await mapping.readVersioned()).version;
    const outcome = await mapping.claimForMessage(U, 'om_1');
    expect(outcome).toEqual({
      kind: 'session',
      sessionId: 's-1',
      cwd: '/w/a',
      model: 'claude-sonnet-4-5',
      mappingVersion: before,
    });
    expect((await mapping.readVersioned()).version).toBe(before);
  });

  it('pending slot: first text claims, re-claim by the same id is idempotent, others get "creating"', async () => {
    await mapping.setPendingNew(U, { cwd: '/w/new', model: 'opus' });
    clock = new Date('2026-05-05T10:30:05Z');
    expect(strip(await mapping.claimForMessage(U, 'om_1'))).toEqual({ kind: 'new', cwd: '/w/new', model: 'opus' });
    const entry = await mapping.get(U);
    expect(entry).toMatchObject({
      type: 'pending_new_session_claimed',
      cwd: '/w/new',
      claimedByMessageId: 'om_1',
      claimedAt: '2026-05-05T10:30:05.000Z',
      createdAt: '2026-05-05T10:30:00.000Z',
      model: 'opus',
    });
    const version = (await mapping.readVersioned()).version;
    expect(strip(await mapping.claimForMessage(U, 'om_1'))).toEqual({ kind: 'new', cwd: '/w/new', model: 'opus' });
    expect(strip(await mapping.claimForMessage(U, 'om_2'))).toEqual({ kind: 'creating', claimedByMessageId: 'om_1' });
    expect((await mapping.readVersioned()).version).toBe(version);
  });

  it('completeClaim is guarded by the claiming message id and idempotent', async () => {
    await mapping.setPendingNew(U, { cwd: '/w/new' });
    await mapping.claimForMessage(U, 'om_1');
    expect(await mapping.completeClaim(U, 'om_2', 's-x', '/w/new')).toBe(false);
    expect((await mapping.get(U))?.type).toBe('pending_new_session_claimed');
    expect(await mapping.completeClaim(U, 'om_1', 's-new', '/w/new')).toBe(true);
    expect(await mapping.get(U)).toMatchObject({ type: 'session', sessionUuid: 's-new', cwd: '/w/new' });
    const version = (await mapping.readVersioned()).version;
    expect(await mapping.completeClaim(U, 'om_1', 's-new', '/w/new')).toBe(true);
    expect((await mapping.readVersioned()).version).toBe(version);
    expect(await mapping.completeClaim(U, 'om_1', 's-other', '/w/new')).toBe(false);
    expect(strip(await mapping.claimForMessage(U, 'om_3'))).toEqual({
      kind: 'session',
      sessionId: 's-new',
      cwd: '/w/new',
    });
  });

  it('completeClaim after the user switched away changes nothing', async () => {
    await mapping.setPendingNew(U, { cwd: '/w/new' });
    await mapping.claimForMessage(U, 'om_1');
    await mapping.setSession(U, { sessionUuid: 's-old', cwd: '/w/old' });
    expect(await mapping.completeClaim(U, 'om_1', 's-new', '/w/new')).toBe(false);
    expect(await mapping.get(U)).toMatchObject({ type: 'session', sessionUuid: 's-old' });
  });

  it('rollbackClaim restores the slot only for the claiming message, and the slot can be claimed again', async () => {
    await mapping.setPendingNew(U, { cwd: '/w/new', model: 'haiku' });
    await mapping.claimForMessage(U, 'om_1');
    expect(await mapping.rollbackClaim(U, 'om_2')).toBe(false);
    expect(await mapping.rollbackClaim(U, 'om_1')).toBe(true);
    expect(await mapping.get(U)).toMatchObject({
      type: 'pending_new_session',
      cwd: '/w/new',
      model: 'haiku',
      createdAt: '2026-05-05T10:30:00.000Z',
    });
    expect(await mapping.rollbackClaim(U, 'om_1')).toBe(false);
    expect(strip(await mapping.claimForMessage(U, 'om_2'))).toEqual({ kind: 'new', cwd: '/w/new', model: 'haiku' });
  });

  it('claimNewDirectly claims in one step, overriding any target, and is idempotent', async () => {
    await mapping.setSession(U, { sessionUuid: 's-1', cwd: '/w/a', model: 'sonnet' });
    await mapping.claimNewDirectly(U, 'om_new', '/w/b');
    expect(await mapping.get(U)).toMatchObject({
      type: 'pending_new_session_claimed',
      cwd: '/w/b',
      claimedByMessageId: 'om_new',
      model: 'sonnet',
    });
    const version = (await mapping.readVersioned()).version;
    await mapping.claimNewDirectly(U, 'om_new', '/w/b');
    expect((await mapping.readVersioned()).version).toBe(version);
    expect(strip(await mapping.claimForMessage(U, 'om_next'))).toEqual({
      kind: 'creating',
      claimedByMessageId: 'om_new',
    });
    await mapping.claimNewDirectly(U, 'om_new2', '/w/c', 'opus');
    expect(await mapping.get(U)).toMatchObject({ claimedByMessageId: 'om_new2', cwd: '/w/c', model: 'opus' });
  });

  it('carries the default model across targets; setDefaultModel needs an entry', async () => {
    expect(await mapping.setDefaultModel(U, 'opus')).toBe(false);
    await mapping.setPendingNew(U, { cwd: '/w/a' });
    expect(await mapping.setDefaultModel(U, 'opus')).toBe(true);
    await mapping.setSession(U, { sessionUuid: 's-1', cwd: '/w/a' });
    expect(await mapping.get(U)).toMatchObject({ type: 'session', defaultProvider: 'opus' });
    await mapping.setPendingNew(U, { cwd: '/w/b' });
    expect(await mapping.get(U)).toMatchObject({ model: 'opus' });
    await mapping.setPendingNew(U, { cwd: '/w/b', model: null });
    expect(await mapping.get(U)).toMatchObject({ model: null });
  });

  it('every change gets a fresh casToken; clear honours an expected token', async () => {
    await mapping.setSession(U, { sessionUuid: 's-1', cwd: '/w/a' });
    const t1 = (await mapping.get(U))?.casToken;
    await mapping.setSession(U, { sessionUuid: 's-2', cwd: '/w/a' });
    const t2 = (await mapping.get(U))?.casToken;
    expect(t1).toBeTruthy();
    expect(t2).not.toBe(t1);
    expect(await mapping.clear(U, t1)).toBe(false);
    expect(await mapping.clear(U, t2)).toBe(true);
    expect(await mapping.get(U)).toBeNull();
  });

  it('binds the owner once', async () => {
    expect(await mapping.bindOwner('ou_a')).toBe(true);
    expect(await mapping.bindOwner('ou_a')).toBe(true);
    expect(await mapping.bindOwner('ou_b')).toBe(false);
    expect((await mapping.read()).ownerOpenId).toBe('ou_a');
  });

  it('writes the versioned envelope with the documented data shape, 0600', async () => {
    await mapping.setPendingNew(U, { cwd: '/w/a' });
    const disk = JSON.parse(await fs.readFile(file, 'utf8'));
    expect(disk).toMatchObject({
      version: 1,
      schema: 1,
      data: { ownerOpenId: null, entries: { [U]: { type: 'pending_new_session', cwd: '/w/a' } } },
    });
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });

  it('refuses a file whose entries have the wrong shape', async () => {
    await fs.writeFile(
      file,
      JSON.stringify({
        version: 3,
        schema: 1,
        data: { ownerOpenId: null, entries: { [U]: { type: 'session', cwd: '/x' } } },
      }),
    );
    await expect(mapping.read()).rejects.toBeInstanceOf(StoreError);
    await expect(mapping.claimForMessage(U, 'om_1')).rejects.toMatchObject({ code: 'STORE_CORRUPT' });
  });
});

describe('UserMapping across processes', () => {
  const moduleUrl = new URL('./user-mapping.ts', import.meta.url).href;
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const children: ChildProcess[] = [];

  afterEach(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    children.length = 0;
  });

  it('exactly one of several processes racing for the same pending slot gets "new"', async () => {
    const ROUNDS = 8;
    const PROCS = 4;
    const script = `
      import fs from 'node:fs';
      import readline from 'node:readline';
      const { UserMapping } = await import(${JSON.stringify(moduleUrl)});
      const m = new UserMapping(process.env.MAP_FILE);
      const rl = readline.createInterface({ input: process.stdin });
      process.stdout.write('ready\\n');
      for await (const line of rl) {
        if (line === 'exit') break;
        const r = await m.claimForMessage('${U}', process.env.ID + '-' + line);
        process.stdout.write(JSON.stringify({ round: Number(line), kind: r.kind, by: r.claimedByMessageId ?? null }) + '\\n');
      }
      process.exit(0);
    `;
    const results = new Map<number, Array<{ kind: string; by: string | null; id: string }>>();
    const waiters: Array<() => void> = [];
    const notify = () => waiters.splice(0).forEach((w) => w());
    let ready = 0;
    for (let i = 0; i < PROCS; i += 1) {
      const id = `om_p${i}`;
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: repoRoot,
        env: { ...process.env, MAP_FILE: file, ID: id },
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      children.push(child);
      let buf = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        buf += chunk.toString();
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (line === 'ready') ready += 1;
          else {
            const r = JSON.parse(line) as { round: number; kind: string; by: string | null };
            const list = results.get(r.round) ?? [];
            list.push({ ...r, id: `${id}-${r.round}` });
            results.set(r.round, list);
          }
          notify();
        }
      });
    }
    const until = (cond: () => boolean) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('children did not answer in time')), 25_000);
        const check = () => (cond() ? (clearTimeout(timer), resolve()) : waiters.push(check));
        check();
      });
    await until(() => ready === PROCS);
    for (let round = 0; round < ROUNDS; round += 1) {
      await mapping.setPendingNew(U, { cwd: `/w/round-${round}` });
      for (const c of children) c.stdin!.write(`${round}\n`);
      await until(() => (results.get(round)?.length ?? 0) === PROCS);
      const got = results.get(round)!;
      const winners = got.filter((r) => r.kind === 'new');
      expect(winners).toHaveLength(1);
      const winner = winners[0]!;
      for (const r of got.filter((x) => x.kind !== 'new')) expect(r).toMatchObject({ kind: 'creating', by: winner.id });
      expect(await mapping.get(U)).toMatchObject({
        type: 'pending_new_session_claimed',
        claimedByMessageId: winner.id,
        cwd: `/w/round-${round}`,
      });
    }
    for (const c of children) c.stdin!.write('exit\n');
  }, 60_000);
});
