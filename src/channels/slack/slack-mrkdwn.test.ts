import { describe, expect, it } from 'vitest';
import { mrkdwnProblem } from '../../../test/fakes/fake-slack/slack-blocks.js';
import { escapeMrkdwn, fitMrkdwn, markdownToMrkdwn, markdownToMrkdwnBlocks, renderedLength } from './slack-mrkdwn.js';

describe('markdown → Slack mrkdwn', () => {
  it('escapes &, < and > everywhere, also inside code, and spoofs no link or mention', () => {
    expect(escapeMrkdwn('a < b && c > d')).toBe('a &lt; b &amp;&amp; c &gt; d');
    const out = markdownToMrkdwn('<@U123> <!channel> & `x<y>` \n```\n<html>&\n```');
    expect(out).toBe('&lt;@U123&gt; &lt;!channel&gt; &amp; `x&lt;y&gt;` \n```\n&lt;html&gt;&amp;\n```');
    expect(mrkdwnProblem(out)).toBeUndefined();
  });

  it('turns bold, headings, links, quotes and bullets into their mrkdwn forms', () => {
    expect(markdownToMrkdwn('# Title\n**bold** and [docs](https://x.test/a?b=1&c=2)\n> said\n- item')).toBe(
      '*Title*\n*bold* and <https://x.test/a?b=1&amp;c=2|docs>\n> said\n• item',
    );
  });

  it('cuts a long answer into texts of at most the block limit, each with its code fences balanced', () => {
    const md = [
      'intro & more',
      '```ts',
      ...Array.from({ length: 400 }, (_, i) => `const v${i} = a < b;`),
      '```',
      'end',
    ].join('\n');
    const blocks = markdownToMrkdwnBlocks(md, 2_900);
    expect(blocks.length).toBeGreaterThan(1);
    for (const b of blocks) {
      expect(b.length).toBeLessThanOrEqual(2_900);
      expect((b.match(/```/g) ?? []).length % 2).toBe(0);
      expect(mrkdwnProblem(b)).toBeUndefined();
    }
    expect(blocks.join('\n').replace(/```\n```\n/g, '')).toContain('const v399 = a &lt; b;');
  });

  it('gives valid mrkdwn for any cut of any input, never splitting an entity', () => {
    const md = '**b** `c` [l](https://x.test) <&>\n```\nx<&>y\n```\n> q & a\n' + '&'.repeat(4_000);
    for (let cut = 0; cut <= md.length; cut += 97) {
      for (const b of markdownToMrkdwnBlocks(md.slice(0, cut), 2_900)) {
        expect(b.length).toBeLessThanOrEqual(2_900);
        expect(mrkdwnProblem(b)).toBeUndefined();
        expect((b.match(/```/g) ?? []).length % 2).toBe(0);
      }
    }
  });

  it('fits a text to a rendered budget at a line end, counting the escapes', () => {
    const text = `${'line & more\n'.repeat(100)}tail`;
    const kept = fitMrkdwn(text, 500);
    expect(renderedLength(text.slice(0, kept))).toBeLessThanOrEqual(500);
    expect(text[kept]).toBe('\n');
    expect(fitMrkdwn('short', 500)).toBe(5);
  });
});
