import { describe, expect, it } from 'vitest';
import type { CardReply } from '../../bridge/reply-model.js';
import { parseTelegramHtml } from '../../../test/fakes/fake-telegram/telegram-html.js';
import { cardHtml, renderReply, TELEGRAM_MAX_TEXT } from './render-reply.js';

const card = (text: string, over: Partial<CardReply> = {}): CardReply => ({
  kind: 'card',
  title: '✅ Claude <done>',
  status: 'complete',
  sections: [{ type: 'answer', text }],
  footer: '1 turn & $0.01',
  ...over,
});

function visible(html: string): string {
  const parsed = parseTelegramHtml(html);
  if (!parsed.ok) throw new Error(parsed.description);
  return parsed.visible;
}

describe('cardHtml', () => {
  it('shows title, answer and footer, escaped', () => {
    const { html, kept } = cardHtml(card('hi'), { text: 'hi', note: 'more below' });
    expect(visible(html)).toBe('✅ Claude <done>\n\nhi\n\n1 turn & $0.01');
    expect(kept).toBe(2);
  });

  it('cuts an answer that escapes past 4096 characters, with the note, and says how much it kept', () => {
    const text = `${'<&>'.repeat(1200)}\n${'z'.repeat(2000)}`;
    const { html, kept } = cardHtml(card(text), { text, note: 'more below' });
    const shown = visible(html);
    expect(shown.length).toBeLessThanOrEqual(TELEGRAM_MAX_TEXT);
    expect(shown).toContain('more below');
    expect(kept).toBeGreaterThan(3000);
    expect(kept).toBeLessThan(text.length);
    expect(shown).toContain(text.slice(0, kept));
  });

  it('cuts any other over-long section too, so the message is never refused', () => {
    const { html } = cardHtml(card('', { sections: [{ type: 'plain', text: '<x>'.repeat(3000) }] }));
    expect(visible(html).length).toBeLessThanOrEqual(TELEGRAM_MAX_TEXT);
  });
});

describe('renderReply', () => {
  it('puts buttons three to a row with the bound callback data', async () => {
    const action = { type: 'switch' as const, sessionId: 's' };
    const buttons = ['a', 'b', 'c', 'd'].map((label) => ({ label, action }));
    let n = 0;
    const r = await renderReply(card('x', { buttons }), async () => `a:${n++}`);
    expect(r.keyboard?.inline_keyboard.map((row) => row.map((b) => [b.text, b.callback_data]))).toEqual([
      [
        ['a', 'a:0'],
        ['b', 'a:1'],
        ['c', 'a:2'],
      ],
      [['d', 'a:3']],
    ]);
  });

  it('renders a text reply as markdown', async () => {
    expect((await renderReply({ kind: 'text', text: '**hi** <x>' }, async () => '')).html).toBe('<b>hi</b> &lt;x&gt;');
  });
});
