/**
 * Security review, check 6: the gate's hostile corpus at system level. Every hostile argument is
 * streamed by the fake OpenAI server as a real model tool call, through (a) the web console's chat
 * (HTTP → ConsoleChats → the gateway from createGateway) and (b) the bridge's `/cc` path (Feishu
 * over the real SDK → bridge → ccexecForBridge → the same gateway). Each call must be refused
 * (exit 126 shown for a gate denial; 64 for unreadable arguments; 127 for another tool) or run
 * with the hostile text as one inert literal; the fake ChainlessChain CLI's data never changes (no
 * write command ran), no shell ever ran (the planted `touch` marker never appears), no variable
 * was expanded, and the CLI runs only in the configured directory.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAudit, type AuditRecord } from '../../src/ccexec/audit-log.js';
import { HARNESS_KEYS } from '../fakes/fake-chainlesschain/gateway-harness.js';
import { openaiTextTurn, openaiToolCallTurn } from '../fakes/fake-llm/fake-openai-server.js';
import { hostileCorpus, type HostileCall } from './hostile-corpus.js';
import { OWNER, startLiveSystem, type LiveSystem } from './live-system.js';

let sys: LiveSystem;
let pwn: string;
let corpus: HostileCall[];
let dataBefore: string;
let dumpFile: string;
const views: string[] = [];
const cards: string[] = [];
const auth = () => ({ Authorization: `Bearer ${sys.token}`, 'Content-Type': 'application/json' });

function chunks<T>(items: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += n) out.push(items.slice(i, i + n));
  return out;
}

/** Queues one model answer per call (one call per round, three rounds a question), then a text answer. */
function script(calls: HostileCall[], ids: string[]): void {
  sys.openai.enqueue(
    ...calls.map((h, i) =>
      openaiToolCallTurn({ id: ids[i] as string, name: h.tool ?? 'cc_exec', argPieces: [h.args] }),
    ),
    openaiTextTurn('好的。'),
  );
}

async function viaWebChat(): Promise<void> {
  for (const [k, chunk] of chunks(corpus, 3).entries()) {
    script(
      chunk,
      chunk.map((_, i) => `web_${k}_${i}`),
    );
    const chat = (await (
      await fetch(`${sys.base}/api/chats`, {
        method: 'POST',
        headers: auth(),
        body: JSON.stringify({ provider: 'openai' }),
      })
    ).json()) as { id: string };
    expect(
      (
        await fetch(`${sys.base}/api/chats/${chat.id}/send`, {
          method: 'POST',
          headers: auth(),
          body: JSON.stringify({ text: `问题 ${k}` }),
        })
      ).status,
    ).toBe(202);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const view = await (await fetch(`${sys.base}/api/chats/${chat.id}`, { headers: auth() })).text();
      if (view.includes('"kind":"end"')) {
        views.push(view);
        break;
      }
      if (Date.now() > deadline) throw new Error(`web chat ${k} did not end: ${view}`);
      await new Promise((r) => setTimeout(r, 30));
    }
  }
}

async function viaBridgeCc(): Promise<void> {
  for (const [k, chunk] of chunks(corpus, 3).entries()) {
    script(
      chunk,
      chunk.map((_, i) => `cc_${k}_${i}`),
    );
    const n = sys.texts(OWNER).length;
    await sys.say(OWNER, `/cc 问题 ${k}`);
    await sys.feishu.waitFor(
      () =>
        sys
          .texts(OWNER)
          .slice(n)
          .some((t) => t.includes('openai · gpt-4o-mini') && !t.includes('处理中')),
      20_000,
    );
    cards.push(sys.texts(OWNER).slice(n).join('\n'));
  }
}

beforeAll(async () => {
  pwn = path.join(os.tmpdir(), `pwned-${randomBytes(6).toString('hex')}`);
  corpus = hostileCorpus(pwn);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-sec-dump-'));
  dumpFile = path.join(root, 'env.json');
  sys = await startLiveSystem({ web: true, env: { FAKE_CC_DUMP_ENV: dumpFile } });
  dataBefore = fs.readFileSync(sys.cli.dataFile, 'utf8');
  await viaWebChat();
  await viaBridgeCc();
}, 240_000);

afterAll(async () => {
  await sys?.close();
  fs.rmSync(path.dirname(dumpFile), { recursive: true, force: true });
  fs.rmSync(pwn, { force: true });
});

describe('the hostile corpus through the web chat and through /cc', () => {
  let audit: Map<string, AuditRecord>;
  beforeAll(async () => {
    audit = new Map((await readAudit(sys.paths.auditFile, { limit: 10_000 })).map((r) => [r.call, r]));
  });

  for (const path of ['web', 'cc'] as const) {
    it(`${path}: every call is refused with its exit code, or runs as an inert literal`, () => {
      const wrong: string[] = [];
      for (const [k, chunk] of chunks(corpus, 3).entries()) {
        chunk.forEach((h, i) => {
          const r = audit.get(`${path}_${k}_${i}`);
          if (!r) return void wrong.push(`${h.name}: no audit record`);
          if ('refused' in h.expect) {
            if (r.decision === 'allowed' || r.exit !== h.expect.refused)
              wrong.push(`${h.name}: ${r.decision} exit ${r.exit}`);
          } else if (
            r.decision !== 'allowed' ||
            r.exit !== 0 ||
            r.command !== 'search' ||
            !r.args.includes(h.expect.literal)
          ) {
            wrong.push(`${h.name}: ${r.decision} exit ${r.exit} ${JSON.stringify(r.args)}`);
          }
        });
      }
      expect(wrong).toEqual([]);
    });
  }

  it('web: the chat shows exit 126 on the card of every gate denial', () => {
    const denials = corpus.filter((h) => 'refused' in h.expect && h.expect.refused === 126).length;
    const tools = views
      .flatMap(
        (v) =>
          (JSON.parse(v) as { items: Array<{ kind: string; state?: string; decision?: string; exitCode?: number }> })
            .items,
      )
      .filter((i) => i.kind === 'tool' && i.state === 'TOOL_DONE');
    expect(tools.filter((i) => i.decision === 'denied' && i.exitCode === 126).length).toBe(denials);
    expect(tools.filter((i) => i.decision === 'denied' && i.exitCode !== 126)).toEqual([]);
  });

  it('cc: the /cc answer cards show exit 126 for every gate denial', () => {
    const denials = corpus.filter((h) => 'refused' in h.expect && h.expect.refused === 126).length;
    expect(cards.join('\n').match(/exit 126/g)?.length ?? 0).toBeGreaterThanOrEqual(denials);
  });

  it('no shell ever ran: the planted marker does not exist', () => {
    expect(fs.existsSync(pwn)).toBe(false);
    expect(fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith(path.basename(pwn)))).toEqual([]);
  });

  it("the CLI's data is unchanged and only read-only commands ever ran", () => {
    expect(fs.readFileSync(sys.cli.dataFile, 'utf8')).toBe(dataBefore);
    const runs = sys.cliCalls().filter((argv) => !argv.includes('--version'));
    const literals = corpus.filter((h) => 'literal' in h.expect).length;
    expect(runs.length).toBe(literals * 2); // each literal case once per path; nothing else
    for (const argv of runs) expect(argv[0]).toBe('search');
  });

  it('no variable was expanded and no secret reached the model or the CLI', () => {
    for (const r of sys.openai.requests) {
      const body = JSON.stringify(r.body);
      for (const key of Object.values(HARNESS_KEYS)) expect(body).not.toContain(key);
    }
    const dump = JSON.parse(fs.readFileSync(dumpFile, 'utf8')) as { cwd: string; env: Record<string, string> };
    for (const key of Object.values(HARNESS_KEYS)) expect(JSON.stringify(dump.env)).not.toContain(key);
    expect(fs.realpathSync(dump.cwd)).toBe(fs.realpathSync(sys.config.ccexec.cwd)); // the configured directory, never the model's
  });
});
