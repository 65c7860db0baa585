import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveJsonlPath } from './resolve-jsonl-path.js';

let projects: string;
beforeEach(() => {
  projects = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-projects-'));
});
afterEach(() => fs.rmSync(projects, { recursive: true, force: true }));

const ID = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';

describe('resolveJsonlPath', () => {
  it('prefers the encoded cwd directory, else any project directory', async () => {
    const encoded = path.join(projects, '-w-my-app');
    const other = path.join(projects, '-elsewhere');
    fs.mkdirSync(encoded);
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, `${ID}.jsonl`), '{}\n');
    expect(await resolveJsonlPath(projects, ID, '/w/my app', { delaysMs: [] })).toBe(path.join(other, `${ID}.jsonl`));
    fs.writeFileSync(path.join(encoded, `${ID}.jsonl`), '{}\n');
    expect(await resolveJsonlPath(projects, ID, '/w/my app', { delaysMs: [] })).toBe(path.join(encoded, `${ID}.jsonl`));
  });

  it('polls: finds a file that appears after a while; gives up after the last delay', async () => {
    const dir = path.join(projects, '-w');
    setTimeout(() => {
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, `${ID}.jsonl`), '{}\n');
    }, 30);
    expect(await resolveJsonlPath(projects, ID, '/w', { delaysMs: [10, 20, 40, 80] })).toBe(
      path.join(dir, `${ID}.jsonl`),
    );
    expect(await resolveJsonlPath(projects, 'missing', '/w', { delaysMs: [5, 5] })).toBeNull();
    expect(await resolveJsonlPath(path.join(projects, 'nope'), ID, '/w', { delaysMs: [] })).toBeNull();
  });

  it('an aborted signal stops polling', async () => {
    const ac = new AbortController();
    const p = resolveJsonlPath(projects, 'missing', '/w', { delaysMs: [10_000], signal: ac.signal });
    ac.abort();
    expect(await p).toBeNull();
  });
});
