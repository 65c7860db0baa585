import type { ChatEvent } from '../../ccexec/chat-states.js';
import { defineMessages, type Language } from '../../core/i18n.js';
import type { Output } from '../context/output.js';

/** Texts of `ask`, `chat` and `chat history`, zh (default) and en. */
export const chatMessages = defineMessages({
  zh: {
    thinking: '… 正在思考',
    finalizing: '… 整理结果',
    running: '⏳ 执行 {command}',
    exitLine: 'exit {exit} · {ms}ms',
    denied: '🚫 未允许：{reason}',
    invalid: '⚠️ 参数无效：{reason}',
    duplicate: '♻️ 与之前的调用相同，未重复执行',
    skipped: '⏭️ 未执行：每轮只执行一个调用',
    failedRun: '❌ {reason}',
    moreLines: '… 共 {n} 行',
    cancelling: '⏹ 正在取消…',
    cancelled: '⏹ 已取消',
    failed: '✖ {message}',
    prefix: '💬 {text}',
    header: '🤖 {provider} · {model}',
    replHelp: '输入问题后回车；Ctrl-C 取消正在进行的回答，在提示符处连按两次 Ctrl-C（或输入 /exit）退出。',
    prompt: '你> ',
    pressAgain: '（再按一次 Ctrl-C 退出）',
    historyEmpty: '（还没有 cc_exec 调用记录）',
    historyLine: '{time}  {provider}/{model}  {mark} {command}  {result}',
    historyRan: 'exit {exit} · {ms}ms · {bytes}B',
    historyNotRun: '{decision} ({exit})',
  },
  en: {
    thinking: '… thinking',
    finalizing: '… putting the answer together',
    running: '⏳ running {command}',
    exitLine: 'exit {exit} · {ms}ms',
    denied: '🚫 not allowed: {reason}',
    invalid: '⚠️ invalid arguments: {reason}',
    duplicate: '♻️ same as an earlier call, not run again',
    skipped: '⏭️ not run: one call per turn',
    failedRun: '❌ {reason}',
    moreLines: '… {n} lines in total',
    cancelling: '⏹ cancelling…',
    cancelled: '⏹ cancelled',
    failed: '✖ {message}',
    prefix: '💬 {text}',
    header: '🤖 {provider} · {model}',
    replHelp:
      'Type a question and press Enter; Ctrl-C cancels the running answer, Ctrl-C twice at the prompt (or /exit) quits.',
    prompt: 'you> ',
    pressAgain: '(press Ctrl-C again to quit)',
    historyEmpty: '(no cc_exec calls recorded yet)',
    historyLine: '{time}  {provider}/{model}  {mark} {command}  {result}',
    historyRan: 'exit {exit} · {ms}ms · {bytes}B',
    historyNotRun: '{decision} ({exit})',
  },
});

/** Where a live answer is written: raw text to stdout, no newline added. */
export type RawWrite = (text: string) => void;

/**
 * Renders a chat run in a terminal. Progress — state lines, a box per tool call (command, exit,
 * duration, first lines) and notices — goes to stderr through `out.progress`; the answer goes to
 * stdout. With `live` (stdout is a terminal) the model's text streams to stdout as it arrives; without
 * it (a pipe) only the final answer is printed, once, so `cc-linker ask … > answer.txt` captures the
 * answer and nothing else.
 */
export function createChatPrinter(out: Output, lang: Language, live?: RawWrite): { onEvent(event: ChatEvent): void } {
  const t = chatMessages(lang);
  let pending = ''; // the text of the current model pass, not yet known to be a prefix or the answer
  let streamedOpen = false;

  const closeLive = (): void => {
    if (live && streamedOpen) live('\n');
    streamedOpen = false;
  };

  return {
    onEvent(ev) {
      switch (ev.type) {
        case 'THINKING':
          out.progress(t('thinking'));
          return;
        case 'FINALIZING':
          out.progress(t('finalizing'));
          return;
        case 'text':
          if (live) {
            live(ev.delta);
            streamedOpen = true;
          } else pending += ev.delta;
          return;
        case 'reasoning':
          return;
        case 'notice':
          closeLive();
          out.progress(`ℹ ${ev.message}`);
          return;
        case 'TOOL_CALLED':
          closeLive();
          if (pending.trim() !== '') out.progress(t('prefix', { text: pending.trim() }));
          pending = '';
          return;
        case 'TOOL_RUNNING':
          out.progress(t('running', { command: ev.commandLine }));
          return;
        case 'TOOL_DONE':
          out.progress(toolBox(ev, t));
          return;
        case 'COMPLETE':
          if (live) {
            if (!streamedOpen && ev.answer !== '') live(ev.answer);
            if (streamedOpen || ev.answer !== '') live('\n');
            streamedOpen = false;
          } else out.print(ev.answer);
          return;
        case 'FAILED':
          closeLive();
          out.progress(t('failed', { message: ev.message }));
          return;
        case 'CANCELLED':
          closeLive();
          out.progress(t('cancelled'));
          return;
      }
    },
  };
}

type Translate = ReturnType<typeof chatMessages>;

/** The terminal card of one tool call. */
function toolBox(ev: Extract<ChatEvent, { type: 'TOOL_DONE' }>, t: Translate): string {
  const body: string[] = [];
  switch (ev.decision) {
    case 'denied':
      body.push(t('denied', { reason: ev.reason ?? '' }));
      break;
    case 'invalid':
    case 'unknown-tool':
      body.push(t('invalid', { reason: ev.reason ?? '' }));
      break;
    case 'skipped':
      body.push(t('skipped'));
      break;
    case 'duplicate':
      body.push(t('duplicate'), ...previewLines(ev, t));
      break;
    case 'allowed':
      body.push(t('exitLine', { exit: ev.exitCode, ms: Math.round(ev.durationMs) }));
      // exit -1: the CLI did not finish (cancelled, timed out, not startable); its reason says why.
      if (ev.exitCode === -1)
        body.push(t('failedRun', { reason: ev.reason ?? '' }), ...(ev.stdout ? previewLines(ev, t) : []));
      else body.push(...previewLines(ev, t));
      break;
  }
  return [`┌ ${ev.commandLine}`, ...body.map((line) => `│ ${line}`), '└'].join('\n');
}

function previewLines(ev: Extract<ChatEvent, { type: 'TOOL_DONE' }>, t: Translate): string[] {
  if (ev.preview === '') return [];
  const lines = ev.preview.split('\n');
  const total = (ev.stdout || ev.stderr).replace(/\n$/, '').split('\n').length;
  return total > lines.length ? [...lines, t('moreLines', { n: total })] : lines;
}
