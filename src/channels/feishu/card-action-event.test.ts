import { describe, expect, it } from 'vitest';
import { callbackAnswer, parseCardAction, parseCardClick } from './card-action-event.js';

describe('parseCardAction', () => {
  it.each([
    { type: 'permission', requestId: 'r', nonce: 'n', decision: 'always' },
    { type: 'question', requestId: 'r', nonce: 'n', answer: 'B' },
    { type: 'question', requestId: 'r', nonce: 'n', answer: 'B', question: 2 },
    { type: 'switch', sessionId: 's' },
    { type: 'select_dir', path: '/home/u/p' },
    { type: 'browse_dir', path: '/home/u' },
    { type: 'force_send', messageId: 'feishu:om_1', nonce: 'n' },
    { type: 'recovery', messageId: 'feishu:om_1', nonce: 'n', choice: 'continue' },
    { type: 'recovery', messageId: 'feishu:om_1', nonce: 'n', choice: 'skip' },
    { type: 'stop', messageId: 'feishu:om_1', nonce: 'n' },
  ])('accepts a well-formed %o (also as a JSON string)', (action) => {
    expect(parseCardAction(action)).toEqual(action);
    expect(parseCardAction(JSON.stringify(action))).toEqual(action);
  });

  it('drops unknown fields instead of passing them on', () => {
    expect(parseCardAction({ type: 'switch', sessionId: 's', admin: true })).toEqual({
      type: 'switch',
      sessionId: 's',
    });
  });

  it.each([
    ['missing nonce', { type: 'permission', requestId: 'r', decision: 'allow' }],
    ['bad decision', { type: 'permission', requestId: 'r', nonce: 'n', decision: 'sudo' }],
    ['number instead of string', { type: 'switch', sessionId: 7 }],
    ['empty path', { type: 'select_dir', path: '' }],
    ['question index not a whole number', { type: 'question', requestId: 'r', nonce: 'n', answer: 'B', question: 0.5 }],
    ['negative question index', { type: 'question', requestId: 'r', nonce: 'n', answer: 'B', question: -1 }],
    ['question index as text', { type: 'question', requestId: 'r', nonce: 'n', answer: 'B', question: '0' }],
    ['bad recovery choice', { type: 'recovery', messageId: 'feishu:om_1', nonce: 'n', choice: 'run' }],
    ['recovery without nonce', { type: 'recovery', messageId: 'feishu:om_1', choice: 'skip' }],
    ['stop without nonce', { type: 'stop', messageId: 'feishu:om_1' }],
    ['unknown type', { type: 'exec', cmd: 'rm' }],
    ['not an object', 'allow'],
    ['array', [1]],
    ['null', null],
  ])('rejects %s', (_name, value) => {
    expect(parseCardAction(value)).toBeUndefined();
  });
});

describe('parseCardClick', () => {
  it('reads operator, message and action of a card.action.trigger event', () => {
    const data = {
      operator: { open_id: 'ou_a' },
      action: { value: { type: 'switch', sessionId: 's' }, tag: 'button' },
      context: { open_message_id: 'om_card', open_chat_id: 'oc_1' },
    };
    expect(parseCardClick(data)).toEqual({
      userId: 'ou_a',
      messageId: 'om_card',
      action: { type: 'switch', sessionId: 's' },
    });
    expect(parseCardClick({ ...data, action: { value: { type: 'nope' } } })).toEqual({
      userId: 'ou_a',
      messageId: 'om_card',
    });
    expect(parseCardClick({ action: data.action })).toBeUndefined();
  });
});

describe('callbackAnswer', () => {
  it('maps the toast and renders the card as a raw JSON 2.0 card', () => {
    const answer = callbackAnswer(
      { toast: { type: 'warning', text: '已过期' }, card: { kind: 'text', text: 'expired' } },
      'zh',
    );
    expect(answer.toast).toEqual({ type: 'warning', content: '已过期' });
    expect(answer.card?.type).toBe('raw');
    expect(answer.card?.data).toMatchObject({
      schema: '2.0',
      body: { elements: [{ tag: 'markdown', content: 'expired' }] },
    });
    expect(callbackAnswer({}, 'zh')).toEqual({});
  });
});
