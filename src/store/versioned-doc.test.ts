import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreError } from './store-error.js';
import { VersionedDoc } from './versioned-doc.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');

interface Mapping {
  users: Record<string, string>;
}
const mappingDoc = (file: string) =>
  new VersionedDoc<Mapping>(file, {
    schema: 2,
    defaultValue: () => ({ users: {} }),
    validate: (d) => {
      if (!d || typeof d !== 'object' || typeof (d as Mapping).users !== 'object')
        throw new Error('users must be an object\nsecond line');
      return d as Mapping;
    },
  });

describe('VersionedDoc', () => {
  let tmp: string;
  let file: string;
  const children: ChildProcess[] = [];
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-store-doc-'));
    file = path.join(tmp, 'home', 'user-mapping.json');
  });
  afterEach(() => {
    for (const c of children.splice(0)) c.kill('SIGKILL');
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a missing file reads as version 0 with the default value, and writes nothing', async () => {
    expect(await mappingDoc(file).read()).toEqual({ version: 0, data: { users: {} } });
    expect(fs.existsSync(file)).toBe(false);
  });

  it('compareAndSwap writes version+1 in the documented envelope (0600, dir 0700) and refuses a stale version', async () => {
    const doc = mappingDoc(file);
    expect(await doc.compareAndSwap(0, { users: { a: 's1' } })).toEqual({ ok: true, version: 1 });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ version: 1, schema: 2, data: { users: { a: 's1' } } });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(await doc.compareAndSwap(0, { users: { b: 'lost' } })).toEqual({
      ok: false,
      current: { version: 1, data: { users: { a: 's1' } } },
    });
    expect(await doc.compareAndSwap(1, { users: { a: 's2' } })).toEqual({ ok: true, version: 2 });
    expect(await doc.read()).toEqual({ version: 2, data: { users: { a: 's2' } } });
    expect(fs.existsSync(doc.lockFile)).toBe(false);
  });

  it('update mutates a clone, and returning undefined writes nothing', async () => {
    const doc = mappingDoc(file);
    const first = await doc.update((d) => ({ users: { ...d.users, a: 'x' } }));
    expect(first).toEqual({ version: 1, data: { users: { a: 'x' } }, changed: true });
    const before = fs.statSync(file).mtimeMs;
    let seen: Mapping | undefined;
    const same = await doc.update((d) => {
      d.users.a = 'mutated-in-place-but-discarded';
      seen = d;
      return undefined;
    });
    expect(same).toEqual({ version: 1, data: { users: { a: 'x' } }, changed: false });
    expect(seen).not.toBe(same.data);
    expect(fs.statSync(file).mtimeMs).toBe(before);
    expect((await doc.read()).data.users.a).toBe('x');
  });

  it('update retries on conflict, then falls back to a locked read-mutate-write', async () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const doc = mappingDoc(file);
    const rival = mappingDoc(file);
    let calls = 0;
    const r = await doc.update(
      (d) => {
        calls += 1;
        // A rival commits between our read and our CAS, twice; the third (locked) attempt cannot be raced.
        if (calls <= 2)
          fs.writeFileSync(
            file,
            JSON.stringify({ version: 100 + calls, schema: 2, data: { users: { rival: String(calls) } } }),
          );
        return { users: { ...d.users, mine: 'yes' } };
      },
      { maxRetries: 2 },
    );
    expect(calls).toBe(3);
    expect(r).toEqual({ version: 103, data: { users: { rival: '2', mine: 'yes' } }, changed: true });
    expect(await rival.read()).toEqual({ version: 103, data: { users: { rival: '2', mine: 'yes' } } });
  });

  it('a half-written file is STORE_CORRUPT; so is a non-envelope or data failing validate (one line)', async () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"version":3,"schema":2,"data":{"us');
    await expect(mappingDoc(file).read()).rejects.toMatchObject({ code: 'STORE_CORRUPT', params: { file } });
    await expect(mappingDoc(file).update((d) => d)).rejects.toMatchObject({ code: 'STORE_CORRUPT' });
    fs.writeFileSync(file, JSON.stringify({ users: {} }));
    await expect(mappingDoc(file).read()).rejects.toMatchObject({
      code: 'STORE_CORRUPT',
      params: { reason: 'not a versioned document' },
    });
    fs.writeFileSync(file, JSON.stringify({ version: 1, schema: 2, data: { users: 7 } }));
    const e = (await mappingDoc(file)
      .read()
      .catch((err: unknown) => err)) as StoreError;
    expect(e.code).toBe('STORE_CORRUPT');
    expect(e.userMessage).toContain('users must be an object');
    expect(e.userMessage).not.toContain('second line');
  });

  it('a file from a newer schema is refused with STORE_NEWER_SCHEMA and never overwritten', async () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const newer = JSON.stringify({ version: 9, schema: 3, data: { users: {}, extra: true } });
    fs.writeFileSync(file, newer);
    const e = (await mappingDoc(file)
      .read()
      .catch((err: unknown) => err)) as StoreError;
    expect(e).toBeInstanceOf(StoreError);
    expect(e.code).toBe('STORE_NEWER_SCHEMA');
    expect(e.userMessage).toContain(file);
    expect(e.userMessage).not.toContain('\n');
    expect(e.localize('en')).toContain('schema 3, this version supports 2');
    await expect(mappingDoc(file).compareAndSwap(9, { users: {} })).rejects.toMatchObject({
      code: 'STORE_NEWER_SCHEMA',
    });
    expect(fs.readFileSync(file, 'utf8')).toBe(newer);
  });

  it('older schemas go through migrate before validate, and are written back with the current schema', async () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ version: 4, schema: 1, data: { a: 's1' } }));
    const doc = new VersionedDoc<Mapping>(file, {
      schema: 2,
      defaultValue: () => ({ users: {} }),
      migrate: (d, from) => (from === 1 ? { users: d as Record<string, string> } : d),
    });
    expect(await doc.read()).toEqual({ version: 4, data: { users: { a: 's1' } } });
    await doc.update((d) => d);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ version: 5, schema: 2 });
  });

  it('several processes incrementing through update() end with the exact count', async () => {
    const counterFile = path.join(tmp, 'home', 'counter.json');
    const go = path.join(tmp, 'go');
    const script = path.join(tmp, 'incr.mjs');
    fs.writeFileSync(
      script,
      `import fs from 'node:fs';
import { VersionedDoc } from ${JSON.stringify(pathToFileURL(path.join(here, 'versioned-doc.ts')).href)};
const [file, go, n, id] = process.argv.slice(2);
const doc = new VersionedDoc(file, { schema: 1, defaultValue: () => ({ n: 0, by: {} }), lock: { retryMs: 3, timeoutMs: 25000 } });
process.stdout.write('ready\\n');
while (!fs.existsSync(go)) await new Promise((r) => setTimeout(r, 2));
for (let i = 0; i < Number(n); i++) {
  await doc.update((d) => ({ n: d.n + 1, by: { ...d.by, [id]: (d.by[id] ?? 0) + 1 } }));
}
`,
    );
    const procs = 4;
    const perProc = 25;
    const ready: Promise<unknown>[] = [];
    const exits: Promise<number | null>[] = [];
    for (let i = 0; i < procs; i += 1) {
      const c = spawn(process.execPath, ['--import', 'tsx', script, counterFile, go, String(perProc), `p${i}`], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      children.push(c);
      ready.push(new Promise((r) => c.stdout?.once('data', r)));
      exits.push(new Promise((r) => c.on('exit', (code) => r(code))));
    }
    await Promise.all(ready);
    fs.writeFileSync(go, '');
    expect(await Promise.all(exits)).toEqual(Array(procs).fill(0));
    const final = await new VersionedDoc<{ n: number; by: Record<string, number> }>(counterFile, {
      schema: 1,
      defaultValue: () => ({ n: 0, by: {} }),
    }).read();
    expect(final.data.n).toBe(procs * perProc);
    expect(final.version).toBe(procs * perProc);
    expect(Object.values(final.data.by)).toEqual(Array(procs).fill(perProc));
  });
});
