import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../core/logger.js';
import { LoginSessions, tokenTag, type LoginLimits } from './login-sessions.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const LIMITS: LoginLimits = { maxAgeMs: 30 * DAY, idleMs: 7 * DAY, max: 4 };

describe('LoginSessions', () => {
  let dir: string;
  let file: string;
  let now: number;
  const clock = () => now;
  let opened: LoginSessions[] = [];
  const open = async (tag = tokenTag('token-one-0123456789')) => {
    const logins = await LoginSessions.open(file, tag, { logger: silentLogger, limits: LIMITS, now: clock });
    opened.push(logins);
    return logins;
  };

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-logins-'));
    file = path.join(dir, 'web', 'logins.json');
    now = Date.parse('2026-06-01T00:00:00Z');
  });
  afterEach(async () => {
    // A lookup saves in the background: let those writes end before the folder goes.
    await Promise.all(opened.map((logins) => logins.settled()));
    opened = [];
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('gives each login a random 256-bit id and stores only its hash (0600, in a 0700 folder)', async () => {
    const logins = await open();
    const ids = [await logins.create(), await logins.create()];
    expect(ids[0]).not.toBe(ids[1]);
    for (const id of ids) {
      expect(Buffer.from(id, 'base64url')).toHaveLength(32);
      expect(logins.lookup(id)).toBe(createHash('sha256').update(id).digest('hex'));
    }
    const text = await fs.readFile(file, 'utf8');
    for (const id of ids) expect(text).not.toContain(id);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    for (const bad of [undefined, '', 'x', `${ids[0]}x`, (ids[0] as string).toUpperCase()])
      expect(logins.lookup(bad)).toBeNull();
  });

  it('ends a login 30 days after it began, or after 7 idle days, whichever comes first', async () => {
    const logins = await open();
    const busy = await logins.create();
    const idle = await logins.create();
    for (let day = 1; day < 30; day += 1) {
      now += DAY;
      expect(logins.lookup(busy), `day ${day}`).not.toBeNull();
      if (day === 6) expect(logins.lookup(idle)).not.toBeNull();
      if (day === 13) expect(logins.lookup(idle)).toBeNull(); // 7 days after its last request
    }
    now += DAY;
    expect(logins.lookup(busy)).toBeNull(); // day 30
    expect(logins.size).toBe(0);
  });

  it('keeps at most `max` logins, ending the least recently used', async () => {
    const logins = await open();
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      ids.push(await logins.create());
      now += HOUR;
    }
    logins.lookup(ids[0]); // the oldest is in use
    now += HOUR;
    const fifth = await logins.create();
    expect(logins.size).toBe(4);
    expect(logins.lookup(ids[1])).toBeNull();
    for (const id of [ids[0], ids[2], ids[3], fifth]) expect(logins.lookup(id)).not.toBeNull();
  });

  it('survives a reopen under the same token; a store of another token, or a broken one, counts for nothing', async () => {
    const first = await open();
    const id = await first.create();
    const gone = await first.create();
    await first.end(first.lookup(gone) as string);
    expect((await open()).lookup(id)).not.toBeNull();
    expect((await open()).lookup(gone)).toBeNull();

    const rotated = await open(tokenTag('token-two-0123456789'));
    expect(rotated.lookup(id)).toBeNull();
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toMatchObject({ logins: [] });
    expect((await open()).lookup(id)).toBeNull(); // back to the first token: still ended

    const again = await open();
    const kept = await again.create();
    await fs.writeFile(file, '{"version":1,');
    const broken = await open();
    expect(broken.lookup(kept)).toBeNull();
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toMatchObject({ version: 1, logins: [] });
  });

  it('reset ends every login at once, on disk too', async () => {
    const logins = await open();
    const id = await logins.create();
    await logins.reset(tokenTag('token-two-0123456789'));
    expect(logins.lookup(id)).toBeNull();
    expect((await open(tokenTag('token-two-0123456789'))).size).toBe(0);
  });

  it('writes the time of a request at most hourly, and an idle login ends after a reopen too', async () => {
    const logins = await open();
    const id = await logins.create();
    const saved = async () => JSON.parse(await fs.readFile(file, 'utf8')) as { logins: Array<{ seen: number }> };
    now += 10 * 60_000;
    logins.lookup(id);
    const before = (await saved()).logins[0]?.seen;
    now += HOUR;
    logins.lookup(id);
    await expect.poll(async () => (await saved()).logins[0]?.seen).toBe(now);
    expect(before).toBeLessThan(now);
    now += 7 * DAY;
    expect((await open()).lookup(id)).toBeNull();
  });
});
