import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeHarness, OWNER, type BridgeHarness } from '../../../test/fakes/bridge-harness.js';
import type { InboundMessage } from '../inbound-message.js';
import type { CardReply } from '../reply-model.js';

// A voice message through the bridge with a channel whose `prepare` plays the speech service:
// what was heard is the prompt and is quoted on the card; nothing heard or a failure runs nothing.

let h: BridgeHarness;
afterEach(async () => {
  await h?.cleanup();
});

/** The channel's prepare: sets the voice's transcript (or error) and counts its calls. */
function transcribeAs(result: { transcript?: string; error?: string }): { calls: number } {
  const seen = { calls: 0 };
  h.channel.prepare = async (m: InboundMessage) => {
    seen.calls += 1;
    return m.voice && m.voice.transcript === undefined && !m.voice.error
      ? { ...m, voice: { ...m.voice, ...result } }
      : m;
  };
  return seen;
}

const voiceMsg = (over: Partial<InboundMessage> = {}) =>
  h.msg('', { voice: { key: 'file_v', durationMs: 3000 }, ...over });

async function mapped(): Promise<void> {
  await h.mapping.setPendingNew(OWNER, { cwd: path.join(h.home, 'Git/alpha') });
}

describe('a voice message in the bridge', () => {
  it('the transcript is the prompt, the card quotes it with 🎤 at the top, and it is kept on the record', async () => {
    h = await bridgeHarness();
    await mapped();
    const prep = transcribeAs({ transcript: 'list the *files* here' });
    const m = voiceMsg();
    expect(await h.bridge.accept(m)).toEqual({ status: 'accepted' });
    await h.bridge.whenIdle();
    expect(h.engine.requests.map((r) => r.prompt)).toEqual(['[voice message, transcribed] list the *files* here']);
    const card = h.channel.messages[0]?.finished as CardReply;
    expect(card.sections[0]).toEqual({ type: 'quote', text: '🎤 list the *files* here' });
    expect(card.status).toBe('complete');
    // While the agent runs, the streamed card shows it too.
    expect(h.channel.messages[0]?.streamStates.at(-1)?.heard).toBe('list the *files* here');
    const done = await h.spool.read('done', m.id);
    expect(done?.message.voice).toEqual({ key: 'file_v', durationMs: 3000, transcript: 'list the *files* here' });
    expect(prep.calls).toBe(1);
  });

  it('the transcript is on disk (with the record) by the time the agent starts', async () => {
    h = await bridgeHarness();
    await mapped();
    transcribeAs({ transcript: 'deploy it' });
    const m = voiceMsg();
    let onDisk: unknown;
    h.engine.onSend = async () => {
      onDisk = (await h.spool.read('processing', m.id))?.message.voice;
    };
    await h.bridge.accept(m);
    await h.bridge.whenIdle();
    expect(onDisk).toMatchObject({ transcript: 'deploy it' });
  });

  it('nothing heard: a clear reply, no run, and the new-session claim is given back', async () => {
    h = await bridgeHarness({ bridge: { lang: 'en' } });
    await mapped();
    transcribeAs({ transcript: '' });
    const m = voiceMsg();
    await h.bridge.accept(m);
    await h.bridge.whenIdle();
    expect(h.engine.requests).toHaveLength(0);
    expect(h.channel.transcript().join('\n')).toContain('Nothing was heard');
    expect(await h.mapping.get(OWNER)).toMatchObject({ type: 'pending_new_session' });
    // A later typed message still runs in a new session.
    await h.bridge.accept(h.msg('typed instead'));
    await h.bridge.whenIdle();
    expect(h.engine.requests.map((r) => r.prompt)).toEqual(['typed instead']);
  });

  it('a failure: the reply names the reason, nothing runs', async () => {
    h = await bridgeHarness();
    await mapped();
    transcribeAs({ error: 'no permission' });
    await h.bridge.accept(voiceMsg());
    await h.bridge.whenIdle();
    expect(h.engine.requests).toHaveLength(0);
    expect(h.channel.transcript()).toEqual([
      '🎤 语音转文字失败：no permission。这条语音没有发给 agent，请稍后重试或改发文字。',
    ]);
  });

  it('text plus voice keeps both, in that order: transcript first, then the typed text', async () => {
    h = await bridgeHarness();
    await mapped();
    transcribeAs({ transcript: 'run the tests' });
    await h.bridge.accept(voiceMsg({ text: 'only the unit ones' }));
    await h.bridge.whenIdle();
    expect(h.engine.requests.map((r) => r.prompt)).toEqual([
      '[voice message, transcribed] run the tests\nonly the unit ones',
    ]);
  });

  it('a failed voice beside typed text: the text runs and the card says what happened to the voice', async () => {
    h = await bridgeHarness();
    await mapped();
    transcribeAs({ error: 'too long' });
    await h.bridge.accept(voiceMsg({ text: 'hello' }));
    await h.bridge.whenIdle();
    expect(h.engine.requests.map((r) => r.prompt)).toEqual(['hello']);
    expect((h.channel.messages[0]?.finished as CardReply).sections[0]).toEqual({ type: 'quote', text: '🎤 too long' });
  });
});
