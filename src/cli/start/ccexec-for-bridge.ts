import type { CardReply, Reply } from '../../bridge/reply-model.js';
import { runSummary } from '../../ccexec/answer-card-text.js';
import type { Gateway } from '../../ccexec/create-gateway.js';
import type { ChatEvent } from '../../ccexec/chat-states.js';
import { defineMessages, type Language } from '../../core/i18n.js';

const t = defineMessages({
  zh: { title: '🔎 cc_exec', calls: '工具调用', none: '（未调用工具）', failed: '失败', cancelled: '已取消' },
  en: { title: '🔎 cc_exec', calls: 'Tool calls', none: '(no tool calls)', failed: 'Failed', cancelled: 'Cancelled' },
});

/**
 * `/cc <question>` for the bridge: one gateway chat per question, answered with one card that lists
 * each tool call (command, exit, duration) and then the model's answer.
 */
export function ccexecForBridge(
  gateway: Gateway,
  lang: Language,
): (question: string, userId: string, signal: AbortSignal) => Promise<Reply> {
  const m = t(lang);
  return async (question, _userId, signal) => {
    const chat = gateway.newChat();
    const events: ChatEvent[] = [];
    await chat.run(question, { signal, onEvent: (e) => events.push(e) });
    const s = runSummary(events);
    const lines = s.calls.map(
      (c) =>
        `${c.exitCode === 0 ? '✅' : '❌'} ${c.commandLine} · exit ${c.exitCode} · ${(c.durationMs / 1000).toFixed(1)}s${c.reason ? ` · ${c.reason}` : ''}`,
    );
    const card: CardReply = {
      kind: 'card',
      title: m('title'),
      status: s.state === 'COMPLETE' ? 'complete' : s.state === 'CANCELLED' ? 'warning' : 'error',
      sections: [
        { type: 'fields', fields: [{ label: m('calls'), value: lines.length > 0 ? '' : m('none') }] },
        ...(lines.length > 0 ? [{ type: 'plain' as const, text: lines.join('\n') }] : []),
        { type: 'divider' as const },
        s.state === 'COMPLETE'
          ? { type: 'answer' as const, text: s.answer }
          : {
              type: 'plain' as const,
              text: `${s.state === 'CANCELLED' ? m('cancelled') : m('failed')}: ${s.error ?? ''}`,
            },
      ],
      footer: `${chat.provider.id} · ${chat.provider.model}`,
    };
    return card;
  };
}
