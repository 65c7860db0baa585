import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeHarness, OWNER, type BridgeHarness } from '../../../test/fakes/bridge-harness.js';
import { FakeEngine } from '../../../test/fakes/fake-engine.js';
import type { EngineRequest } from '../../engine/engine-types.js';
import { AppError } from '../../core/app-error.js';
import type { Config } from '../../core/config-schema.js';
import { silentLogger } from '../../core/logger.js';
import type { Channel } from '../channel.js';
import type { CardAction, CardReply } from '../reply-model.js';
import { recoverSpool } from '../spool/recover-spool.js';
import { pipelineMessages } from './pipeline-messages.js';

const t = pipelineMessages('zh');
const SESSION = 'aaaaaaaa-0000-4000-8000-00000000000a';

/** What one run of the engine writes into its transcript before it answers, or hangs until stopped. */
type Writes = (request: EngineRequest) => { lines: object[]; hang: boolean };

/**
 * A fake engine that writes a transcript: each run appends the lines `writes` gives (in Claude
 * Code's shapes) to `<dir>/<session>.jsonl`, then answers or hangs until its signal aborts — a
 * bridge killed mid-run, as far as the transcript can tell. It does not say where the file is.
 */
class WritingEngine extends FakeEngine {
  writes: Writes = () => ({ lines: [], hang: false });

  constructor(readonly dir: string) {
    super();
    this.onSend = async (request, options) => {
      const { lines, hang } = this.writes(request);
      const file = path.join(this.dir, `${request.sessionId ?? request.newSessionId ?? ''}.jsonl`);
      fs.appendFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
      if (!hang) return;
      await new Promise((_resolve, reject) =>
        options.signal?.addEventListener('abort', () => reject(new AppError('CANCELLED', 'stopped')), { once: true }),
      );
    };
  }
}

/** The same engine with a readable transcript (`transcriptOf`), as the Claude Code engine has. */
class TranscriptEngine extends WritingEngine {
  transcriptOf(sessionId: string, _cwd: string): string {
    return path.join(this.dir, `${sessionId}.jsonl`);
  }
}

const user = (content: string) => ({
  type: 'user',
  message: { role: 'user', content },
  timestamp: new Date().toISOString(),
});
const answer = (text: string) => ({
  type: 'assistant',
  message: { id: 'msg_1', model: 'claude-x', content: [{ type: 'text', text }], stop_reason: 'end_turn' },
});
const toolCall = {
  type: 'assistant',
  message: {
    id: 'msg_2',
    model: 'claude-x',
    content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {} }],
    stop_reason: 'tool_use',
  },
};

let h: BridgeHarness;
let engine: WritingEngine;
afterEach(async () => {
  await h?.cleanup();
});

async function setup(o: { configure?: (c: Config) => void; readable?: boolean } = {}): Promise<string> {
  let dir = '';
  h = await bridgeHarness({
    configure: (c) => {
      dir = path.join(path.dirname(c.queue.spool_dir), 'transcripts');
      fs.mkdirSync(dir, { recursive: true });
      engine = o.readable === false ? new WritingEngine(dir) : new TranscriptEngine(dir);
      o.configure?.(c);
    },
    bridge: {
      get engine() {
        return engine;
      },
    },
  });
  await h.mapping.setSession(OWNER, { sessionUuid: SESSION, cwd: path.join(h.home, 'Git/alpha') });
  return dir;
}

/** The bridge dies mid-run (its run is stopped, the record stays in processing/) and starts again. */
async function crashAndRestart(): Promise<void> {
  await h.bridge.stop(20);
  await recoverSpool(h.spool, h.bridge.deliveries, silentLogger);
  await h.restart();
}

async function runUntilHung(text: string): Promise<string> {
  const m = h.msg(text);
  await h.bridge.accept(m);
  while (!(await h.spool.read('processing', m.id))?.run) await sleep(5);
  await sleep(20);
  return m.id;
}

const finalCard = (): CardReply => h.channel.messages[0]?.finished as CardReply;
const cardText = (c: CardReply) => c.sections.map((s) => ('text' in s ? s.text : '')).join('\n');

describe('a re-run after a crash asks the transcript first', () => {
  it('saves where the run began before the engine starts', async () => {
    const dir = await setup();
    fs.writeFileSync(path.join(dir, `${SESSION}.jsonl`), `${JSON.stringify(user('earlier'))}\n`);
    const seen: unknown[] = [];
    const m = h.msg('question');
    engine.onSend = async () => void seen.push((await h.spool.read('processing', m.id))?.run);
    await h.bridge.accept(m);
    await h.bridge.whenIdle();
    expect(seen[0]).toMatchObject({
      sessionId: SESSION,
      transcript: path.join(dir, `${SESSION}.jsonl`),
      offset: fs.statSync(path.join(dir, `${SESSION}.jsonl`)).size,
    });
  });

  it('a finished answer in the transcript is delivered from it; Claude is not called again', async () => {
    await setup();
    engine.writes = (r) => ({ lines: [user(r.prompt), answer('答案就是 42')], hang: true });
    const id = await runUntilHung('question');
    await crashAndRestart();
    await h.bridge.whenIdle();
    expect(engine.requests.map((r) => r.prompt)).toEqual(['question']);
    expect(cardText(finalCard())).toContain('答案就是 42');
    expect(finalCard().footer).toBe(t('transcriptFooter'));
    expect((await h.spool.read('done', id))?.outcome).toMatchObject({ kind: 'engine', fromTranscript: true });
  });

  it('a cut turn is resumed with the continue instruction, never the prompt; the card says so', async () => {
    await setup();
    engine.writes = (r) =>
      r.prompt === 'question'
        ? { lines: [user(r.prompt), toolCall], hang: true }
        : { lines: [user(r.prompt), answer('done')], hang: false };
    const id = await runUntilHung('question');
    await crashAndRestart();
    await h.bridge.whenIdle();
    expect(engine.requests.map((r) => r.prompt)).toEqual(['question', t('continueInstruction')]);
    expect(engine.requests[1]?.sessionId).toBe(SESSION);
    expect(cardText(finalCard())).toContain(t('continuedNote'));
    const record = await h.spool.read('done', id);
    expect(record?.run?.continued).toBe(1);
    expect(record?.outcome).toMatchObject({ continued: true });
  });

  it('a prompt that never reached the transcript is sent again, even when an earlier one reads the same', async () => {
    const dir = await setup();
    fs.writeFileSync(
      path.join(dir, `${SESSION}.jsonl`),
      [user('question'), answer('old')].map((l) => `${JSON.stringify(l)}\n`).join(''),
    );
    engine.writes = (r) =>
      engine.requests.length === 1 ? { lines: [], hang: true } : { lines: [user(r.prompt)], hang: false };
    await runUntilHung('question');
    await crashAndRestart();
    await h.bridge.whenIdle();
    expect(engine.requests.map((r) => r.prompt)).toEqual(['question', 'question']);
    expect(cardText(finalCard())).toContain('echo: question');
  });

  it('an engine without a transcript keeps the old rule: the prompt is sent again', async () => {
    await setup({ readable: false });
    engine.writes = (r) =>
      engine.requests.length === 1
        ? { lines: [user(r.prompt), answer('in a file nobody reads')], hang: true }
        : { lines: [], hang: false };
    await runUntilHung('question');
    await crashAndRestart();
    await h.bridge.whenIdle();
    expect(engine.requests.map((r) => r.prompt)).toEqual(['question', 'question']);
    expect(cardText(finalCard())).toContain('echo: question');
  });

  it('a run picked up after a restart says so on its card, and its time counts from the first start', async () => {
    await setup({ readable: false });
    engine.writes = () => ({ lines: [], hang: engine.requests.length === 1 });
    const id = await runUntilHung('question');
    const startedAt = Date.parse((await h.spool.read('processing', id))?.run?.startedAt ?? '');
    const states = () => h.channel.messages.flatMap((m) => m.streamStates);
    expect(states().some((s) => s.resumed)).toBe(false);
    const beforeRestart = Date.now();
    await crashAndRestart();
    await h.bridge.whenIdle();
    const resumed = states().filter((s) => s.resumed);
    expect(resumed.length).toBeGreaterThan(0);
    expect(resumed[0]?.elapsedMs).toBeGreaterThanOrEqual(beforeRestart - startedAt);
    expect((await h.spool.read('done', id))?.run?.restarts).toBe(1);
  });

  it('the message is prepared once: a prompt rewritten by a second prepare would not be found', async () => {
    await setup();
    let prepared = 0;
    (h.channel as Channel).prepare = async (m) => ({ ...m, text: `${m.text} #${(prepared += 1)}` });
    engine.writes = (r) =>
      r.prompt.startsWith('question') ? { lines: [user(r.prompt), toolCall], hang: true } : { lines: [], hang: false };
    await runUntilHung('question');
    await crashAndRestart();
    await h.bridge.whenIdle();
    expect(prepared).toBe(1);
    expect(engine.requests.map((r) => r.prompt)).toEqual(['question #1', t('continueInstruction')]);
  });
});

describe('runtime.recovery = "ask"', () => {
  async function askedCard(): Promise<CardReply> {
    for (;;) {
      const card = h.channel.messages[0]?.updates.find((u) => u.kind === 'card' && u.buttons?.length);
      if (card) return card as CardReply;
      await sleep(5);
    }
  }
  const buttons = (card: CardReply) => (card.buttons ?? []).map((b) => b.action);
  const click = (userId: string, action: CardAction) => h.bridge.handleAction({ channel: 'fake', userId, action });

  async function interrupted(): Promise<CardReply> {
    engine.writes = (r) =>
      r.prompt === 'question'
        ? { lines: [user(r.prompt), toolCall], hang: true }
        : { lines: [user(r.prompt), answer('done')], hang: false };
    await runUntilHung('question');
    await crashAndRestart();
    return askedCard();
  }

  it('the card offers Continue / Skip; a stranger or a forged nonce changes nothing; Skip ends it', async () => {
    await setup({ configure: (c) => (c.runtime.recovery = 'ask') });
    const card = await interrupted();
    const [cont, skip] = buttons(card) as [CardAction, CardAction];
    expect(card.buttons?.map((b) => b.label)).toEqual([t('continueButton'), t('skipButton')]);
    expect(cont).toMatchObject({ type: 'recovery', messageId: 'fake:om_1', choice: 'continue' });

    expect((await click('ou_stranger', skip)).toast?.type).toBe('error');
    expect((await click(OWNER, { ...skip, nonce: 'forged' } as CardAction)).toast?.type).toBe('warning');
    await sleep(30);
    expect(finalCard()).toBeUndefined();

    const skipped = await click(OWNER, skip);
    expect(skipped.card).toMatchObject({ title: t('skippedTitle') });
    await h.bridge.whenIdle();
    expect(engine.requests.map((r) => r.prompt)).toEqual(['question']);
    expect(cardText(finalCard())).toBe(t('skipped'));
    expect(await h.spool.read('done', 'fake:om_1')).not.toBeNull();
    expect((await click(OWNER, cont)).toast?.type).toBe('warning'); // nothing is waiting any more
  });

  it('Continue resumes the session with the continue instruction', async () => {
    await setup({ configure: (c) => (c.runtime.recovery = 'ask') });
    const [cont] = buttons(await interrupted()) as [CardAction];
    expect((await click(OWNER, cont)).toast?.type).toBe('success');
    await h.bridge.whenIdle();
    expect(engine.requests.map((r) => r.prompt)).toEqual(['question', t('continueInstruction')]);
    expect(cardText(finalCard())).toContain(t('continuedNote'));
  });

  it('nobody choosing in time skips it', async () => {
    await setup({
      configure: (c) => {
        c.runtime.recovery = 'ask';
        c.sdk.timeout_ms = 50;
      },
    });
    await interrupted();
    await h.bridge.whenIdle();
    expect(engine.requests).toHaveLength(1);
    expect(cardText(finalCard())).toBe(t('skippedNoChoice'));
  });
});
