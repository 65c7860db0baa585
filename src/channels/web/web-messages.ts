import { defineMessages } from '../../core/i18n.js';

const s = (v: string | number | undefined): string => (v === undefined ? '' : String(v));

/** The chrome of a streamed Claude reply as the web channel renders it (status, thinking, tool, elapsed) and a sent file's download link, zh and en. */
export const webMessages = defineMessages({
  zh: {
    streamProcessing: '⏳ 处理中…',
    streamStreaming: '✍️ 回复中…',
    streamThinking: '思考过程',
    streamTool: (p) => `🔧 ${s(p.tool)}`,
    streamElapsed: (p) => `已用 ${s(p.seconds)} 秒 · 工具调用 ${s(p.tools)} 次`,
    streamStopping: '⏸ 停止中…',
    streamStoppingNote: 'cc-linker 正在停止：等待本轮完成；来不及完成的会在下次启动后继续。',
    streamResumedNote: '↻ cc-linker 重启后继续本轮（计时从最初开始算起）。',
    fileDownload: '下载',
  },
  en: {
    streamProcessing: '⏳ Working…',
    streamStreaming: '✍️ Replying…',
    streamThinking: 'Thinking',
    streamTool: (p) => `🔧 ${s(p.tool)}`,
    streamElapsed: (p) => `${s(p.seconds)} s elapsed · ${s(p.tools)} tool calls`,
    streamStopping: '⏸ Stopping…',
    streamStoppingNote:
      'cc-linker is stopping: waiting for this turn to finish; if it cannot, it resumes after the next start.',
    streamResumedNote: '↻ Resumed after cc-linker restarted (the time counts from the first start).',
    fileDownload: 'Download',
  },
});
