import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Crash tests: the pipeline runs in a child process that SIGKILLs itself at a chosen step
 * boundary; it is restarted (re-accepting every message, as Feishu re-pushes) until it finishes.
 * Then: every message got exactly one reply per chunk (counted by idempotency key), nothing was lost,
 * and Claude never ran again for a message whose reply had started to be delivered.
 */
const child = path.join(import.meta.dirname, 'fixtures/bridge-crash-child.ts');
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
});

interface LogEntry {
  op: 'create' | 'update' | 'finish' | 'run';
  key?: string;
  replyTo?: string;
  reply?: { kind: string; text?: string };
  prompt?: string;
  sessionId?: string | null;
  created?: string | null;
}
interface Outcome {
  log: LogEntry[];
  creates: LogEntry[];
  runs: LogEntry[];
  lives: number;
  spool: Record<string, number>;
}

function runScenario(crashAt: string): Outcome {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-crash-'));
  roots.push(root);
  const cwd = path.join(root, 'projects', 'app');
  fs.mkdirSync(cwd, { recursive: true });
  const msg = (n: number, text: string) => ({
    id: `feishu:om_${n}`,
    channel: 'feishu',
    platformMessageId: `om_${n}`,
    userId: 'ou_owner',
    chatId: 'oc',
    chatType: 'p2p',
    text,
    images: [],
    receivedAt: new Date(1_700_000_000_000 + n).toISOString(),
  });
  const messages = [
    msg(1, `/new ${cwd} -- first long question`),
    msg(2, 'second'),
    msg(3, '/status'),
    msg(4, 'third long one'),
    msg(5, '/help'),
  ];
  fs.writeFileSync(path.join(root, 'scenario.json'), JSON.stringify({ messages, cwd }));
  let lives = 0;
  for (let i = 0; i < 6; i += 1) {
    lives += 1;
    const r = spawnSync(process.execPath, ['--import', 'tsx', child], {
      env: { ...process.env, CRASH_DIR: root, CRASH_AT: i === 0 ? crashAt : '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (r.status === 0) break;
    if (i > 0 || r.signal !== 'SIGKILL')
      throw new Error(`child failed (status ${r.status}, signal ${r.signal}): ${r.stderr}`);
  }
  const lines = (f: string) =>
    fs.existsSync(f)
      ? fs
          .readFileSync(f, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      : [];
  const spoolDir = path.join(root, 'home/.cc-linker/spool');
  const spool: Record<string, number> = {};
  for (const s of ['pending', 'processing', 'replied', 'done', 'failed'])
    spool[s] = fs.existsSync(path.join(spoolDir, s))
      ? fs.readdirSync(path.join(spoolDir, s)).filter((n) => !n.startsWith('.')).length
      : 0;
  const log = lines(path.join(root, 'outbox.jsonl')) as LogEntry[];
  return { log, creates: log.filter((e) => e.op === 'create'), runs: log.filter((e) => e.op === 'run'), lives, spool };
}

const CRASH_POINTS = [
  '',
  'after-accept:1',
  'after-accept:3',
  'during-engine:1',
  'during-engine:2',
  'after-send:1',
  'after-send:2',
  'after-send:3',
  'after-send:4',
  'after-send:6',
  'after-finish:1',
  'after-finish:2',
  'before-done:1',
  'before-done:2',
  'before-done:3',
];

describe('pipeline crash safety', () => {
  it.each(CRASH_POINTS)('crash at %s: every message answered once per chunk, none lost', (crashAt) => {
    const o = runScenario(crashAt);
    if (crashAt) expect(o.lives).toBeGreaterThan(1);
    // Nothing left behind, nothing failed.
    expect(o.spool).toMatchObject({ pending: 0, processing: 0, replied: 0, done: 5, failed: 0 });
    // Each chunk key created once (the platform dedupes by key; a second key for the same chunk would show here).
    const keys = o.creates.map((c) => c.key);
    expect(new Set(keys).size).toBe(keys.length);
    // Every message got a reply, threaded on it.
    const repliedTo = new Set(o.creates.map((c) => c.replyTo));
    for (let n = 1; n <= 5; n += 1) expect(repliedTo.has(`om_${n}`)).toBe(true);
    // The long answers overflowed into text chunks: chunk indexes are contiguous per message.
    const perMessage = new Map<string, number>();
    for (const c of o.creates) perMessage.set(c.replyTo ?? '', (perMessage.get(c.replyTo ?? '') ?? 0) + 1);
    expect(perMessage.get('om_1')).toBeGreaterThan(1);
    // Exactly one new session was created, and the second message resumed it.
    const created = o.runs.filter((r) => r.created);
    const createdIds = new Set(created.map((r) => r.created));
    const resumedFirst = o.runs.filter((r) => r.prompt === 'first long question' && r.sessionId);
    expect(createdIds.size + new Set(resumedFirst.map((r) => r.sessionId)).size).toBeGreaterThanOrEqual(1);
    expect(createdIds.size).toBe(1);
    const sid = [...createdIds][0];
    for (const r of o.runs.filter((r) => r.prompt !== 'first long question')) expect(r.sessionId).toBe(sid);
    // Claude never ran again for a message once any of its reply chunks was delivered (the final
    // card, or a text chunk); a re-run is allowed only while the card was still a placeholder.
    const prompts: Record<string, string> = { om_1: 'first long question', om_2: 'second', om_4: 'third long one' };
    for (const [platformId, prompt] of Object.entries(prompts)) {
      const firstDelivered = o.log.findIndex(
        (e) => e.replyTo === platformId && (e.op === 'finish' || (e.op === 'create' && e.reply?.kind === 'text')),
      );
      if (firstDelivered < 0) continue;
      const later = o.log.slice(firstDelivered).filter((e) => e.op === 'run' && e.prompt === prompt);
      expect(later).toEqual([]);
    }
  });
});
