import { describe, expect, it } from 'vitest';
import { lineFacts } from './line-facts.js';

const env = { timestamp: '2026-05-05T10:00:00.000Z', cwd: '/home/me/app', isSidechain: false };

describe('lineFacts', () => {
  it('classifies prompts, tool results, answers and titles', () => {
    expect(lineFacts({ ...env, type: 'user', message: { role: 'user', content: ' fix it ' } })).toMatchObject({
      kind: 'human',
      text: 'fix it',
      timestamp: env.timestamp,
      cwd: env.cwd,
    });
    expect(
      lineFacts({
        ...env,
        type: 'user',
        message: {
          content: [
            { type: 'text', text: 'a' },
            { type: 'tool_result', tool_use_id: 't', content: 'x' },
          ],
        },
      }).kind,
    ).toBe('tool_result');
    expect(lineFacts({ ...env, type: 'user', isMeta: true, message: { content: 'meta' } }).kind).toBe('other');
    for (const wrapper of [
      '<command-name>/clear</command-name>',
      '  <local-command-stdout>ok</local-command-stdout>',
      '[Request interrupted by user for tool use]',
      '\n<command-message>m</command-message>',
    ]) {
      expect(lineFacts({ ...env, type: 'user', message: { content: wrapper } }).kind).toBe('other');
      expect(lineFacts({ ...env, type: 'user', message: { content: [{ type: 'text', text: wrapper }] } }).kind).toBe(
        'other',
      );
    }
    expect(lineFacts({ ...env, type: 'user', message: { content: 'see <command-name> in the docs' } })).toMatchObject({
      kind: 'human',
    });
    expect(
      lineFacts({ ...env, type: 'user', message: { content: '<system-reminder>x</system-reminder> real ask' } }),
    ).toMatchObject({ kind: 'human', text: 'real ask' });
    expect(lineFacts({ ...env, type: 'user', message: 'not an object' }).kind).toBe('other');
    expect(
      lineFacts({
        ...env,
        type: 'assistant',
        uuid: 'u1',
        message: {
          model: '<synthetic>',
          content: [{ type: 'text', text: 'hi' }, { type: 'tool_use' }, { type: 'text', text: 'there' }],
        },
      }),
    ).toMatchObject({ kind: 'assistant', messageId: 'u1', model: null, text: 'hi\nthere' });
    expect(
      lineFacts({ ...env, type: 'assistant', message: { id: 'msg_1', model: 'claude-sonnet-4-5', content: 'plain' } }),
    ).toMatchObject({ messageId: 'msg_1', model: 'claude-sonnet-4-5', text: 'plain' });
    expect(lineFacts({ type: 'custom-title', customTitle: '  Mine ' })).toMatchObject({
      kind: 'title',
      title: 'Mine',
      titleRank: 3,
    });
    expect(lineFacts({ type: 'ai-title', aiTitle: ' ', title: 'Fallback' })).toMatchObject({
      kind: 'title',
      title: 'Fallback',
      titleRank: 2,
    });
    expect(lineFacts({ type: 'summary', summary: 'Old' })).toMatchObject({ kind: 'title', titleRank: 1 });
    expect(lineFacts({ type: 'summary', summary: '' }).kind).toBe('other');
    expect(lineFacts({ ...env, isSidechain: true, type: 'assistant', message: { id: 'm' } })).toMatchObject({
      kind: 'assistant',
      sidechain: true,
    });
  });

  it('never throws, whatever the value or its type is called', () => {
    for (const value of [null, 3, 'x', [], [{ type: 'user' }], { type: 7 }, { timestamp: 5, cwd: {} }])
      expect(lineFacts(value).kind).toBe('other');
    for (const type of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'queue-operation']) {
      expect(lineFacts(JSON.parse(`{"type":"${type}","title":"t","summary":"s"}`))).toMatchObject({
        kind: 'other',
        title: null,
      });
    }
  });
});
