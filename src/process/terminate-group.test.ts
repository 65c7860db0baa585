import { spawn } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  killGroups,
  removeFakeChildren,
  waitGroupGone,
  writeFakeChildren,
  type FakeChildren,
} from '../../test/fakes/fake-children.js';
import { isGroupAlive, signalGroup, terminateGroup } from './terminate-group.js';

let fake: FakeChildren;
const started = new Set<number>();
beforeAll(() => {
  fake = writeFakeChildren();
});
afterAll(() => removeFakeChildren(fake));
afterEach(() => {
  killGroups(started);
  started.clear();
});

/** A detached group running `script`, resolved once it printed 'ready'. */
async function group(script: string, ...args: string[]): Promise<number> {
  const child = spawn(process.execPath, [script, ...args], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  const pgid = child.pid as number;
  started.add(pgid);
  await new Promise<void>((resolve) => {
    let seen = '';
    child.stdout?.on('data', (d: Buffer) => {
      seen += d.toString();
      if (seen.includes('ready\n')) resolve();
    });
  });
  return pgid;
}

describe('terminateGroup', () => {
  it('ends a cooperative group with SIGTERM alone', async () => {
    const pgid = await group(fake.silent);
    expect(isGroupAlive(pgid)).toBe(true);
    expect(await terminateGroup(pgid, { graceMs: 3000 })).toBe('terminated');
    expect(await waitGroupGone(pgid)).toBe(true);
    expect(isGroupAlive(pgid)).toBe(false);
  });

  it('escalates to SIGKILL for a group whose members ignore SIGTERM', async () => {
    const pgid = await group(fake.stubborn, '2');
    expect(await terminateGroup(pgid, { graceMs: 150 })).toBe('killed');
    expect(await waitGroupGone(pgid)).toBe(true);
  });

  it('reports an already gone group without signalling', async () => {
    const pgid = await group(fake.silent);
    process.kill(-pgid, 'SIGKILL');
    expect(await waitGroupGone(pgid)).toBe(true);
    expect(await terminateGroup(pgid, { graceMs: 100 })).toBe('already-gone');
  });

  it('refuses pgids 0, 1 and negatives, which would signal our own group or everything', () => {
    for (const pgid of [0, 1, -1, 1.5, Number.NaN]) {
      expect(isGroupAlive(pgid)).toBe(false);
      expect(signalGroup(pgid, 'SIGTERM')).toBe(false);
    }
  });
});
