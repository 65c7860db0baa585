import { describe, expect, it } from 'vitest';
import type { ChatMessage } from './canonical.js';
import { plainChatGuardMessage, withPlainChatGuard } from './plain-chat-guard.js';

describe('plainChatGuardMessage', () => {
  it('is the anti-hallucination system message in zh by default, with an en version', () => {
    expect(plainChatGuardMessage()).toEqual({
      role: 'system',
      content:
        '本模型不支持工具调用，遇到需要查询本地数据的请求（笔记/skill/状态等），请明确告知用户切换到 OpenAI/Doubao/Anthropic 模型，不要凭空捏造答案。',
    });
    expect(plainChatGuardMessage('en').content).toMatch(/cannot call tools.*never make up an answer/);
  });
});

describe('withPlainChatGuard', () => {
  it('prepends the guard once, however many turns call it', () => {
    const history: ChatMessage[] = [
      { role: 'system', content: 'persona' },
      { role: 'user', content: '列下笔记' },
    ];
    const once = withPlainChatGuard(history);
    expect(once).toEqual([plainChatGuardMessage(), ...history]);
    expect(withPlainChatGuard(once)).toEqual(once);
    expect(history).toHaveLength(2);
  });
});
