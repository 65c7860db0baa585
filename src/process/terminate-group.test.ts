import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  killGroups,
  removeFakeChildren,
  waitGroupGone,
  writeFakeChildren,
  type FakeChildren,
} from '../../test/fakes/fake-children.js';
import { startProcess } from './run-process.js';
import { isGroupAlive, signalGroup, strayGroups, terminateGroup } from './terminate-group.js';

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

function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

describe.skipIf(process.platform !== 'linux')('terminateGroup and descendants in groups of their own', () => {
  it('a stop also ends a grandchild started with setsid (as Claude Code starts its Bash tool)', async () => {
    let out = '';
    // sh dies on SIGTERM at once; its setsid'd child is in another session and group.
    const run = startProcess(['sh', '-c', 'setsid sleep 30 & echo $!; wait'], {
      killGraceMs: 2000,
      onStdout: (text) => (out += text),
    });
    for (let i = 0; i < 400 && !/^\d+\n/.test(out); i += 1) await sleep(5);
    const stray = Number(out.trim());
    const pgid = run.pid as number;
    expect(alive(stray)).toBe(true);
    let groups: number[] = [];
    for (let i = 0; i < 400 && !groups.includes(stray); i += 1) {
      groups = strayGroups(pgid);
      await sleep(5);
    }
    expect(groups).toEqual([stray]);
    run.kill('aborted');
    const result = await run.done;
    expect(result.reason).toBe('aborted');
    expect(isGroupAlive(pgid)).toBe(false);
    expect(alive(stray)).toBe(false);
  });

  it('finds no stray group for a group without descendants elsewhere, and never our own', async () => {
    const run = startProcess(['sleep', '30'], { killGraceMs: 500 });
    expect(strayGroups(run.pid as number)).toEqual([]);
    expect(strayGroups(process.pid)).not.toContain(process.pid);
    run.kill('aborted');
    await run.done;
  });
});
