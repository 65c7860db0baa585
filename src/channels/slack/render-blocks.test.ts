import { describe, expect, it } from 'vitest';
import type { CardReply } from '../../bridge/reply-model.js';
import { buttonsOf, messageProblem, visibleOf } from '../../../test/fakes/fake-slack/slack-blocks.js';
import { cardBlocks, renderReply } from './render-blocks.js';
import { streamBlocks } from './slack-stream.js';

const hostile = '&<>'.repeat(700) + '\n' + '>\n'.repeat(600);

describe('Block Kit rendering within Slack limits', () => {
  it('keeps a hostile card valid (quotes, footer, fields, title, buttons), cutting what is over the limit', () => {
    const card: CardReply = {
      kind: 'card',
      title: `Title & ${'<'.repeat(600)}`,
      status: 'info',
      sections: [
        { type: 'fields', fields: [{ label: 'a & b', value: '<c>' }] },
        { type: 'quote', text: hostile },
        { type: 'divider' },
        { type: 'plain', text: hostile },
      ],
      footer: '&'.repeat(3_000),
      buttons: [
        { label: 'Allow & go', action: { type: 'switch', sessionId: 's1' } },
        { label: 'too big', action: { type: 'select_dir', path: 'x'.repeat(3_000) } },
      ],
    };
    const { text, blocks } = cardBlocks(card);
    expect(messageProblem(text, blocks)).toBeUndefined();
    expect(buttonsOf(blocks).map((b) => b.text)).toEqual(['Allow & go']);
    expect(JSON.parse(buttonsOf(blocks)[0]?.value ?? '')).toEqual({ type: 'switch', sessionId: 's1' });
    expect(visibleOf(text, blocks)).toContain('*a & b*: <c>');
    expect(visibleOf(text, blocks)).toMatch(/\n…\n/); // the part over the message limit is cut, marked
  });

  it('streams a hostile thinking and answer within the limits, and cuts the answer with a note', () => {
    const state = {
      phase: 'streaming' as const,
      text: `${hostile}\n${'x & y\n'.repeat(3_000)}`,
      thinking: hostile,
      toolCount: 0,
      elapsedMs: 0,
    };
    const view = streamBlocks(state, { lang: 'en', showThinking: true });
    expect(messageProblem(view.text, view.blocks)).toBeUndefined();
    expect(view.shownChars).toBeLessThan(state.text.length);
    expect(visibleOf(view.text, view.blocks)).toContain('the rest follows when it is done');
  });

  it('a text reply over the message limit continues in more messages, nothing dropped', () => {
    const parts = renderReply({ kind: 'text', text: '<&>'.repeat(8_000) });
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(messageProblem(p.text, p.blocks)).toBeUndefined();
    expect(parts.map((p) => visibleOf('', p.blocks).replace(/\n/g, '')).join('')).toBe('<&>'.repeat(8_000));
  });
});
