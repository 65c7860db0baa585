import { defineMessages } from '../../core/i18n.js';

const s = (v: string | number | undefined): string => (v === undefined ? '' : String(v));

/** The chrome of a streamed Claude reply as the web channel renders it (status, thinking, tool, elapsed), zh and en. */
export const webMessages = defineMessages({
  zh: {
    streamProcessing: '⏳ 处理中…',
    streamStreaming: '✍️ 回复中…',
    streamThinking: '思考过程',
    streamTool: (p) => `🔧 ${s(p.tool)}`,
    streamElapsed: (p) => `已用 ${s(p.seconds)} 秒 · 工具调用 ${s(p.tools)} 次`,
  },
  en: {
    streamProcessing: '⏳ Working…',
    streamStreaming: '✍️ Replying…',
    streamThinking: 'Thinking',
    streamTool: (p) => `🔧 ${s(p.tool)}`,
    streamElapsed: (p) => `${s(p.seconds)} s elapsed · ${s(p.tools)} tool calls`,
  },
});
