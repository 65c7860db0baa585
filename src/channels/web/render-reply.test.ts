import { describe, expect, it } from 'vitest';
import type { CardReply } from '../../bridge/reply-model.js';
import { renderReply, renderStreamState } from './render-reply.js';

const EVIL = '"><img src=x onerror=alert(1)><script>alert(2)</script>';

describe('renderReply', () => {
  it('escapes every text of a card: title, sections, fields, quotes, buttons, footer', () => {
    const card: CardReply = {
      kind: 'card',
      title: EVIL,
      status: 'warning',
      sections: [
        { type: 'plain', text: EVIL },
        { type: 'markdown', text: `**${EVIL}**` },
        { type: 'quote', text: `${EVIL}\nline` },
        { type: 'divider' },
        { type: 'fields', fields: [{ label: EVIL, value: EVIL }] },
      ],
      buttons: [
        {
          label: EVIL,
          style: 'primary',
          action: { type: 'permission', requestId: 'r1', nonce: 'n1', decision: 'allow' },
        },
      ],
      footer: EVIL,
    };
    const html = renderReply(card);
    expect(html).not.toMatch(/<img|<script/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('<dt>&quot;&gt;&lt;img');
    expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;<br>line</blockquote>');
    expect(html).toContain('<button type="button" class="btn btn-primary" data-button="0">&quot;&gt;&lt;img');
    // The action (nonce, request id) never reaches the page: a click sends the index.
    expect(html).not.toContain('n1');
    expect(html).not.toContain('r1');
  });

  it('falls back to safe class names for unexpected status or style values', () => {
    const card = {
      kind: 'card',
      title: 't',
      status: 'x" onclick="y',
      sections: [],
      buttons: [{ label: 'b', style: 'z" onclick="y', action: { type: 'switch', sessionId: 's' } }],
    } as unknown as CardReply;
    const html = renderReply(card);
    expect(html).toContain('class="reply card card-info"');
    expect(html).toContain('class="btn btn-default"');
    expect(html).not.toContain('onclick');
  });

  it('renders a text reply as safe markdown', () => {
    expect(renderReply({ kind: 'text', text: `/switch done\n${EVIL}` })).toBe(
      '<div class="reply reply-text"><p>/switch done<br />\n"&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;</p></div>',
    );
  });
});

describe('renderStreamState', () => {
  it('shows text, thinking, the running tool and elapsed time, all escaped', () => {
    const html = renderStreamState(
      {
        phase: 'streaming',
        text: `partial **answer** ${EVIL}`,
        thinking: EVIL,
        activeTool: `Bash: ${EVIL}`,
        plan: `📋 1/2 · ${EVIL}`,
        heard: `list ${EVIL}`,
        toolCount: 2,
        elapsedMs: 4200,
      },
      'en',
    );
    expect(html).not.toMatch(/<img|<script/);
    expect(html).toContain('<strong>answer</strong>');
    expect(html).toContain('4 s elapsed · 2 tool calls');
    expect(html).toContain('🔧 Bash: &quot;&gt;&lt;img');
    expect(html).toContain('<div class="sec-plan">📋 1/2 · &quot;&gt;&lt;img');
    expect(html).toContain('<blockquote class="sec-heard">🎤 list &quot;&gt;&lt;img');
    expect(
      renderStreamState({ phase: 'processing', text: '', thinking: '', toolCount: 0, elapsedMs: 0 }, 'zh'),
    ).toContain('处理中');
  });

  it('says when a run was resumed after a restart, and "Stopping…" while cc-linker stops (zh and en)', () => {
    const base = { phase: 'processing' as const, text: '', thinking: '', toolCount: 0, elapsedMs: 95_000 };
    const resumed = renderStreamState({ ...base, resumed: true }, 'zh');
    expect(resumed).toContain('<p class="sec-note sec-resumed">↻ cc-linker 重启后继续本轮');
    expect(resumed).toContain('已用 95 秒');
    expect(renderStreamState({ ...base, resumed: true }, 'en')).toContain('Resumed after cc-linker restarted');
    const stopping = renderStreamState({ ...base, stopping: true }, 'en');
    expect(stopping).toContain('card-stopping');
    expect(stopping).toContain('<header class="card-title">⏸ Stopping…</header>');
    expect(stopping).toContain('cc-linker is stopping');
    expect(renderStreamState({ ...base, stopping: true }, 'zh')).toContain('⏸ 停止中…');
    expect(renderStreamState(base, 'zh')).not.toMatch(/sec-note|停止中/);
  });
});
