import { describe, expect, it } from 'vitest';
import type { CardReply, CardStatus } from '../../bridge/reply-model.js';
import { asCardReply, cardPlainText, CARD_MAX_BYTES, renderCard, renderMessage } from './render-card.js';

type Element = Record<string, unknown> & { tag: string; content?: string };

function elements(card: Record<string, unknown>): Element[] {
  return (card.body as { elements: Element[] }).elements;
}

const base: CardReply = { kind: 'card', title: 'T', status: 'info', sections: [] };

describe('renderCard', () => {
  it.each<[CardStatus, string]>([
    ['processing', 'blue'],
    ['streaming', 'wathet'],
    ['complete', 'green'],
    ['error', 'red'],
    ['warning', 'orange'],
    ['info', 'grey'],
  ])('colours a %s header %s and uses the JSON 2.0 schema', (status, template) => {
    const { card } = renderCard({ ...base, status, title: '✅ 完成' }, { lang: 'zh' });
    expect(card).toMatchObject({
      schema: '2.0',
      config: { update_multi: true },
      header: { title: { tag: 'plain_text', content: '✅ 完成' }, template },
    });
  });

  it('renders markdown as is, escapes plain / quote / fields, and maps dividers', () => {
    const { card } = renderCard(
      {
        ...base,
        sections: [
          { type: 'markdown', text: '**bold** by the bridge' },
          { type: 'plain', text: '<at id=all></at> [x](http://evil)' },
          { type: 'divider' },
          { type: 'quote', text: 'thinking **hard**' },
          { type: 'fields', fields: [{ label: 'Tool', value: 'Bash <font>' }] },
          { type: 'plain', text: '   ' },
        ],
      },
      { lang: 'zh' },
    );
    expect(elements(card)).toEqual([
      { tag: 'markdown', content: '**bold** by the bridge' },
      { tag: 'markdown', content: '&#60;at id=all&#62;&#60;/at&#62; &#91;x&#93;&#40;http://evil&#41;' },
      { tag: 'hr' },
      { tag: 'markdown', content: '> thinking &#42;&#42;hard&#42;&#42;' },
      { tag: 'markdown', content: '**Tool**: Bash &#60;font&#62;' },
    ]);
  });

  it('renders buttons as JSON 2.0 callback buttons carrying the CardAction, then a grey footer', () => {
    const { card } = renderCard(
      {
        ...base,
        buttons: [
          {
            label: 'Allow',
            style: 'primary',
            action: { type: 'permission', requestId: 'r', nonce: 'n', decision: 'allow' },
          },
          {
            label: 'Deny',
            style: 'danger',
            action: { type: 'permission', requestId: 'r', nonce: 'n', decision: 'deny' },
          },
          { label: 'Switch', action: { type: 'switch', sessionId: 's1' } },
        ],
        footer: '💰 $0.01 · ⏱ 2s',
      },
      { lang: 'en' },
    );
    const [row, footer] = elements(card);
    expect(row).toMatchObject({ tag: 'column_set', flex_mode: 'flow' });
    const buttons = (row as unknown as { columns: Array<{ width: string; elements: unknown[] }> }).columns.map(
      (c) => c.elements[0],
    );
    expect(buttons[0]).toEqual({
      tag: 'button',
      text: { tag: 'plain_text', content: 'Allow' },
      type: 'primary_filled',
      behaviors: [{ type: 'callback', value: { type: 'permission', requestId: 'r', nonce: 'n', decision: 'allow' } }],
    });
    expect(buttons.map((b) => (b as { type: string }).type)).toEqual(['primary_filled', 'danger', 'default']);
    expect(footer).toEqual({
      tag: 'markdown',
      content: "<font color='grey'>💰 &#36;0.01 · ⏱ 2s</font>",
      text_size: 'notation',
    });
  });

  it('omits the header when the title is empty', () => {
    expect(renderCard(base, { lang: 'zh' }).card.header).toBeDefined();
    expect(renderCard({ ...base, title: '' }, { lang: 'zh' }).card.header).toBeUndefined();
  });

  it('keeps a card under 30 KB by cutting its largest section and saying so', () => {
    const long = 'x<y '.repeat(10_000);
    const reply: CardReply = {
      ...base,
      sections: [
        { type: 'markdown', text: 'intro' },
        { type: 'plain', text: long },
      ],
      footer: 'footer',
    };
    const { card, truncated } = renderCard(reply, { lang: 'zh' });

    expect(Buffer.byteLength(JSON.stringify(card))).toBeLessThanOrEqual(CARD_MAX_BYTES);
    expect(truncated).toHaveLength(1);
    expect(truncated[0]?.section).toBe(1);
    const kept = truncated[0]?.keptChars ?? 0;
    expect(kept).toBeGreaterThan(1_000);
    expect(kept).toBeLessThan(long.length);
    const els = elements(card);
    expect(els[2]?.content).toContain('内容过长，已截断');
    expect(els.at(-1)?.content).toContain('footer');
  });

  it('respects a smaller byte limit and a custom note', () => {
    const { card } = renderCard(
      { ...base, sections: [{ type: 'quote', text: 'q'.repeat(5_000) }] },
      { lang: 'en', maxBytes: 2_000, truncationNote: 'see below' },
    );
    expect(Buffer.byteLength(JSON.stringify(card))).toBeLessThanOrEqual(2_000);
    expect(JSON.stringify(card)).toContain('see below');
  });
});

describe('renderMessage', () => {
  it('sends text as msg_type text with mentions neutralised', () => {
    const m = renderMessage({ kind: 'text', text: 'hi <at user_id="all"></at>' }, 'zh');
    expect(m.msgType).toBe('text');
    expect(JSON.parse(m.content)).toEqual({ text: 'hi <\u200bat user_id="all"><\u200b/at>' });
  });

  it('sends a card as msg_type interactive with the JSON 2.0 card as content', () => {
    const m = renderMessage({ ...base, sections: [{ type: 'plain', text: 'a' }] }, 'zh');
    expect(m.msgType).toBe('interactive');
    expect(JSON.parse(m.content)).toMatchObject({
      schema: '2.0',
      body: { elements: [{ tag: 'markdown', content: 'a' }] },
    });
  });
});

describe('asCardReply / cardPlainText', () => {
  it('wraps text as a header-less card and flattens cards to text', () => {
    expect(asCardReply({ kind: 'text', text: 't' })).toEqual({
      kind: 'card',
      title: '',
      status: 'info',
      sections: [{ type: 'plain', text: 't' }],
    });
    const card: CardReply = {
      ...base,
      title: '❌ 失败',
      sections: [
        { type: 'markdown', text: '原因' },
        { type: 'divider' },
        { type: 'fields', fields: [{ label: 'a', value: 'b' }] },
      ],
      footer: 'f',
    };
    expect(cardPlainText(card)).toBe('❌ 失败\n原因\na: b\nf');
  });
});
