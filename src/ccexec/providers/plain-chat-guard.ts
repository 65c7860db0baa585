import type { Language } from '../../core/i18n.js';
import type { ChatMessage } from './canonical.js';

/**
 * The anti-hallucination guard: a model that may not call tools would otherwise invent "your notes"
 * out of thin air, so it is told to send the user to a model that can, and never to make data up.
 * The zh text is the wording the ChainlessChain app uses.
 */
const GUARD: Record<Language, string> = {
  zh: '本模型不支持工具调用，遇到需要查询本地数据的请求（笔记/skill/状态等），请明确告知用户切换到 OpenAI/Doubao/Anthropic 模型，不要凭空捏造答案。',
  en: 'This model cannot call tools. When a request needs the user’s local data (notes, skills, status and so on), tell the user clearly to switch to an OpenAI, Doubao or Anthropic model, and never make up an answer.',
};

/** The system message a plain-chat provider gets: `{ role: 'system', content: '本模型不支持工具调用…' }`. */
export function plainChatGuardMessage(language: Language = 'zh'): ChatMessage {
  return { role: 'system', content: GUARD[language] };
}

/**
 * `messages` with the guard prepended, once: calling it again on its own output (every turn of a
 * chat) does not stack copies.
 */
export function withPlainChatGuard(messages: readonly ChatMessage[], language: Language = 'zh'): ChatMessage[] {
  const guard = plainChatGuardMessage(language);
  const first = messages[0];
  if (first?.role === 'system' && first.content === guard.content) return [...messages];
  return [guard, ...messages];
}
