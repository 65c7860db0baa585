import { describe, expect, it } from 'vitest';
import type { StreamState } from './channel.js';
import { streamStatusParts } from './stream-status.js';

const state = (over: Partial<StreamState> = {}): StreamState => ({
  phase: 'streaming',
  text: 'hi',
  thinking: '',
  toolCount: 0,
  elapsedMs: 5_200,
  ...over,
});

describe('streamStatusParts', () => {
  it('says "processing" until the agent writes, then the seconds', () => {
    expect(streamStatusParts(state({ phase: 'processing', text: '' }), 'zh')).toEqual(['⏳ 正在处理 · 5s']);
    expect(streamStatusParts(state(), 'en')).toEqual(['⏱ 5s']);
  });

  it('adds the running tool on one line, the plan and the tools used, each cut at 80 characters', () => {
    const parts = streamStatusParts(
      state({ activeTool: `Bash\n  ${'x'.repeat(100)}`, plan: '📋 2/5 · Run the tests', toolCount: 3 }),
      'en',
    );
    expect(parts[1]).toBe(`🔧 Bash ${'x'.repeat(75)}…`);
    expect(parts.slice(2)).toEqual(['📋 2/5 · Run the tests', '3 tool calls']);
    expect(streamStatusParts(state({ toolCount: 1 }), 'zh')).toEqual(['⏱ 5s', '已调用 1 个工具']);
  });
});
