import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CardReply } from '../../bridge/reply-model.js';
import { silentLogger } from '../../core/logger.js';
import { WebOutbox, type WebMessageView } from './web-outbox.js';

const target = { channel: 'web', userId: 'web:owner', chatId: 'web' };
const card = (text: string): CardReply => ({
  kind: 'card',
  title: 'Done',
  status: 'complete',
  sections: [{ type: 'plain', text }],
});
const permission: CardReply = {
  kind: 'card',
  title: 'Permission',
  status: 'warning',
  sections: [],
  buttons: [
    { label: 'Allow', action: { type: 'permission', requestId: 'req-1', nonce: 'n', decision: 'allow' } },
    { label: 'Deny', action: { type: 'permission', requestId: 'req-1', nonce: 'n', decision: 'deny' } },
  ],
};

describe('WebOutbox', () => {
  let dir: string;
  let file: string;
  const open = (onChange?: (v: WebMessageView) => void) =>
    WebOutbox.open(file, { lang: 'en', logger: silentLogger, ...(onChange ? { onChange } : {}) });

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-outbox-'));
    file = path.join(dir, 'web', 'outbox.jsonl');
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('returns the same message id for a repeated key, also after a restart, and keeps the history', async () => {
    const a = await open();
    await a.recordUser('web:u1', 'hello <b>');
    const first = await a.send(target, { kind: 'text', text: 'one' }, 'key-1');
    const again = await a.send(target, { kind: 'text', text: 'one (retry)' }, 'key-1');
    expect(again.messageId).toBe(first.messageId);
    await a.close();

    const b = await open();
    const afterRestart = await b.send(target, { kind: 'text', text: 'one (retry after crash)' }, 'key-1');
    expect(afterRestart.messageId).toBe(first.messageId);
    const second = await b.send(target, { kind: 'text', text: 'two' }, 'key-2');
    expect(second.messageId).not.toBe(first.messageId);
    const history = b.history();
    expect(history.map((m) => m.kind)).toEqual(['user', 'reply', 'reply']);
    expect(history[0]?.text).toBe('hello <b>');
    expect(history[1]?.html).toContain('<p>one</p>');
    await b.close();
  });

  it('concurrent sends with one key create one message', async () => {
    const a = await open();
    const ids = await Promise.all([1, 2, 3, 4].map((n) => a.send(target, { kind: 'text', text: `try ${n}` }, 'same')));
    expect(new Set(ids.map((r) => r.messageId)).size).toBe(1);
    expect(a.history()).toHaveLength(1);
    await a.close();
    expect((await fs.readFile(file, 'utf8')).trim().split('\n')).toHaveLength(1);
  });

  it('persists updates and stream finishes, and re-opens a stream by id after a restart', async () => {
    const a = await open();
    const { messageId } = await a.send(target, permission, 'perm-key');
    expect(a.buttonAction(messageId, 1)).toEqual({
      type: 'permission',
      requestId: 'req-1',
      nonce: 'n',
      decision: 'deny',
    });
    expect(a.buttonAction(messageId, 2)).toBeNull();
    expect(a.buttonAction('wm_nope', 0)).toBeNull();
    await a.update(messageId, card('allowed'));
    const stream = await a.openStream(target, 'stream-key');
    stream.update({ phase: 'streaming', text: 'partial', thinking: '', toolCount: 0, elapsedMs: 10 });
    await a.close();

    const b = await open();
    expect(b.history()[0]?.html).toContain('allowed');
    expect(b.buttonAction(messageId, 0)).toBeNull();
    const streamed = b.history()[1];
    expect(streamed?.streaming).toBe(true);
    const reopened = await b.openStream(target, 'stream-key', { existingMessageId: stream.messageId });
    expect(reopened.messageId).toBe(stream.messageId);
    expect(await reopened.finish(card('final answer'), 'final answer')).toEqual({ overflow: '' });
    await b.close();

    const c = await open();
    expect(c.history()).toHaveLength(2);
    expect(c.history()[1]).toMatchObject({ id: stream.messageId, streaming: false });
    expect(c.history()[1]?.html).toContain('final answer');
    await c.close();
  });

  it('throws for an update of an unknown message', async () => {
    const a = await open();
    await expect(a.update('wm_missing', card('x'))).rejects.toMatchObject({
      code: 'WEB_UNKNOWN_MESSAGE',
      message: expect.stringContaining('wm_missing'),
    });
    await a.close();
  });

  it('survives a torn last line: skips it and keeps appending on a fresh line', async () => {
    const a = await open();
    const { messageId } = await a.send(target, { kind: 'text', text: 'kept' }, 'k1');
    await a.close();
    await fs.appendFile(file, '{"op":"send","id":"wm_torn","key":"k2","rep');
    const b = await open();
    expect(b.history().map((m) => m.id)).toEqual([messageId]);
    await b.send(target, { kind: 'text', text: 'after' }, 'k3');
    await b.close();
    const c = await open();
    expect(c.history().map((m) => m.html)).toEqual([expect.stringContaining('kept'), expect.stringContaining('after')]);
    await c.close();
  });

  it('creates its directory 0700 and the file 0600, and publishes changes (throttling stream updates)', async () => {
    const seen: WebMessageView[] = [];
    const a = await open((v) => seen.push(v));
    expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    const s = await a.openStream(target, 'sk');
    for (let i = 0; i < 50; i += 1)
      s.update({ phase: 'streaming', text: `t${i}`, thinking: '', toolCount: 0, elapsedMs: i });
    await new Promise((r) => setTimeout(r, 250));
    const streamed = seen.filter((v) => v.id === s.messageId);
    expect(streamed.length).toBeGreaterThanOrEqual(2);
    expect(streamed.length).toBeLessThan(10);
    expect(streamed.at(-1)?.html).toContain('t49');
    await a.close();
  });

  it('a stream shows its Stop button while it runs; a card sent earlier (Queued) is re-opened as the stream', async () => {
    const a = await open();
    const stop = {
      label: 'Stop',
      style: 'danger' as const,
      action: { type: 'stop' as const, messageId: 'web:1', nonce: 'n' },
    };
    const queued = await a.send(target, { ...card('Queued (#1)'), buttons: [stop] }, 'k0');
    expect(a.buttonAction(queued.messageId, 0)).toEqual(stop.action);
    const s = await a.openStream(target, 'k0', { existingMessageId: queued.messageId, buttons: [stop] });
    expect(s.messageId).toBe(queued.messageId);
    s.update({ phase: 'streaming', text: 'live text', thinking: '', toolCount: 0, elapsedMs: 1 });
    const live = a.history().find((v) => v.id === queued.messageId);
    expect(live?.streaming).toBe(true);
    expect(live?.html).toContain('live text');
    expect(live?.html).toContain('data-button="0"');
    expect(a.buttonAction(queued.messageId, 0)).toEqual(stop.action);
    await s.finish(card('answer'), 'answer');
    expect(a.buttonAction(queued.messageId, 0)).toBeNull();
    expect(a.history().find((v) => v.id === queued.messageId)?.html).not.toContain('data-button');
    await a.close();
  });

  it('files each message under its session (pinned text, routed reply, a new session learnt later), across a restart', async () => {
    const a = await open();
    await a.recordUser('web:u1', 'for A', 'sess-a');
    await a.recordUser('web:u2', '/list');
    await a.send({ ...target, replyTo: 'u2' }, { kind: 'text', text: 'the list' }, 'key-list');
    const stream = await a.openStream({ ...target, replyTo: 'u3', sessionId: 'planned' }, 'key-new');
    await a.sessionKnown(stream.messageId, 'sess-new');
    await a.close();
    const b = await open();
    const tags = b.history().map((m) => [m.kind, m.sessionId ?? null, m.replyTo ?? null]);
    expect(tags).toEqual([
      ['user', 'sess-a', null],
      ['user', null, null],
      ['reply', null, 'u2'],
      ['reply', 'sess-new', 'u3'],
    ]);
    await b.close();
  });
});
