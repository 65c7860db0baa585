import { describe, expect, it } from 'vitest';
import { isGroupGone } from '../../test/fakes/fake-children.js';
import { createSdkSpawner } from './sdk-spawn.js';

const ECHO =
  "process.stdin.on('data', (d) => process.stdout.write('got ' + d)); process.stdin.on('end', () => { process.stderr.write('bye'); process.exit(0); });";
const STUBBORN =
  "process.on('SIGTERM', () => {}); require('child_process').spawn(process.execPath, ['-e', \"process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)\"], { stdio: 'ignore' }); process.stdout.write('ready\\n'); setInterval(() => {}, 1000);";

function spawnOpts(args: string[]) {
  return { command: process.execPath, args, env: { PATH: process.env.PATH }, signal: new AbortController().signal };
}

describe('createSdkSpawner', () => {
  it('is a SpawnedProcess: stdin/stdout pipes, stderr to the callback, exit after the child ends', async () => {
    let stderr = '';
    let activity = 0;
    const spawner = createSdkSpawner({ onStderr: (t) => (stderr += t), onActivity: () => (activity += 1) });
    const proc = spawner.spawn(spawnOpts(['-e', ECHO]));
    let out = '';
    proc.stdout.on('data', (d: Buffer | string) => (out += d.toString()));
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      proc.once('exit', (code, sig) => resolve([code, sig])),
    );
    proc.stdin.write('hello\n');
    await new Promise((r) => setTimeout(r, 100));
    proc.stdin.end();
    expect(await exited).toEqual([0, null]);
    expect(out).toBe('got hello\n');
    expect(stderr).toBe('bye');
    expect(activity).toBeGreaterThan(0);
    expect(proc.exitCode).toBe(0);
    expect(spawner.started).toBe(true);
    expect((await spawner.settled())?.reason).toBe('exit');
  });

  it('kill() ends the whole group even when everything ignores SIGTERM', async () => {
    const spawner = createSdkSpawner({ killGraceMs: 100 });
    const proc = spawner.spawn(spawnOpts(['-e', STUBBORN]));
    await new Promise<void>((resolve) => proc.stdout.on('data', () => resolve()));
    const pgid = spawner.pid as number;
    proc.kill('SIGTERM');
    expect(proc.killed).toBe(true);
    await spawner.settled();
    expect(isGroupGone(pgid)).toBe(true);
    expect(proc.signalCode).toBe('SIGKILL');
  });

  it('the forwarded abort signal kills the group; a spawn failure emits error then exit', async () => {
    const spawner = createSdkSpawner({ killGraceMs: 100 });
    const ac = new AbortController();
    spawner.spawn({ ...spawnOpts(['-e', 'setInterval(() => {}, 1000)']), signal: ac.signal });
    ac.abort();
    expect((await spawner.settled())?.reason).toBe('aborted');

    const bad = createSdkSpawner();
    const proc = bad.spawn({ ...spawnOpts([]), command: '/nonexistent/claude' });
    const seen: string[] = [];
    proc.on('error', (e: Error) => seen.push(`error ${e.message}`));
    await new Promise<void>((resolve) =>
      proc.on('exit', (code: number | null) => (seen.push(`exit ${code}`), resolve())),
    );
    expect(seen[0]).toMatch(/^error executable not found/);
    expect(seen[1]).toBe('exit 127');
    expect(await createSdkSpawner().settled()).toBeNull();
  });
});
