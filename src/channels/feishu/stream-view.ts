import type { StreamState } from '../../bridge/channel.js';
import { streamStatusParts } from '../../bridge/stream-status.js';
import type { Language } from '../../core/i18n.js';
import { answerFit, answerMarkdown, escapeMarkdown, jsonBytes, quoteMarkdown } from './escape-markdown.js';
import { feishuMessages } from './feishu-messages.js';
import type { CardButton } from '../../bridge/reply-model.js';
import { buttonsElement, HEADER_TEMPLATE, type CardJson } from './render-card.js';

/** Element ids of the streaming card (letters first, ≤ 20 characters, as CardKit requires). */
export const ANSWER_ELEMENT = 'answer';
export const STATUS_ELEMENT = 'status';

/** Thinking beyond this many characters is cut (its head stays, so updates remain prefixes). */
const MAX_THINKING_CHARS = 2_000;

/** What the streaming card shows for one `StreamState`. */
export interface StreamView {
  /** Markdown of the answer element: thinking as a quote, then the escaped text so far. */
  answer: string;
  /** Markdown of the grey heartbeat line: elapsed time, the tool running, tools used. */
  status: string;
  /** How many characters of `state.text` the answer shows (less than all once over the byte budget). */
  shownChars: number;
  phase: StreamState['phase'];
}

export interface StreamViewOptions {
  lang: Language;
  showThinking: boolean;
  /** Byte budget of the answer element (`stream.max_card_bytes`). */
  maxBytes: number;
}

function cap(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/**
 * Renders a stream state for the card. Both parts only grow while Claude writes (the thinking
 * head is kept, the text is escaped character by character), so consecutive answers are
 * prefixes of each other and CardKit types them out instead of repainting.
 */
export function streamView(state: StreamState, o: StreamViewOptions): StreamView {
  const t = feishuMessages(o.lang);
  const parts: string[] = [];
  const thinking = state.thinking.trim();
  if (state.heard) parts.push(quoteMarkdown(cap(`🎤 ${state.heard}`, MAX_THINKING_CHARS)));
  if (o.showThinking && thinking !== '') parts.push(quoteMarkdown(cap(thinking, MAX_THINKING_CHARS)));
  let shownChars = 0;
  if (state.text !== '') {
    const budget = o.maxBytes - jsonBytes(parts.join(''));
    const escaped = answerMarkdown(state.text);
    if (jsonBytes(escaped) <= budget) {
      parts.push(escaped);
      shownChars = state.text.length;
    } else {
      shownChars = answerFit(state.text, Math.max(0, budget - 200));
      parts.push(`${answerMarkdown(state.text.slice(0, shownChars))}\n\n*${escapeMarkdown(t('streamCapped'))}*`);
    }
  }
  const status = streamStatusParts(state, o.lang);
  return {
    // Until the agent writes, "thinking…" follows whatever is shown (the 🎤 quote alone counts as nothing yet).
    answer: (parts.length > (state.heard ? 1 : 0) ? parts : [...parts, t('waiting')]).join('\n\n'),
    status: `<font color='grey'>${escapeMarkdown(status.join(' · '))}</font>`,
    shownChars,
    phase: state.phase,
  };
}

/**
 * The streaming card: title, an answer element and a heartbeat element, with CardKit's streaming
 * mode on (`streaming: true`, sent as a card entity) or off (a plain interactive card that is
 * patched whole), and the `buttons` the bridge gave the stream (Stop) below them.
 */
export function streamingCard(
  view: StreamView,
  lang: Language,
  streaming: boolean,
  buttons: CardButton[] = [],
): CardJson {
  const t = feishuMessages(lang);
  return {
    schema: '2.0',
    config: {
      update_multi: true,
      summary: { content: t('streamSummary') },
      ...(streaming
        ? {
            streaming_mode: true,
            streaming_config: {
              print_frequency_ms: { default: 30 },
              print_step: { default: 2 },
              print_strategy: 'fast',
            },
          }
        : {}),
    },
    header: { title: { tag: 'plain_text', content: t('streamTitle') }, template: HEADER_TEMPLATE[view.phase] },
    body: {
      elements: [
        { tag: 'markdown', element_id: ANSWER_ELEMENT, content: view.answer },
        { tag: 'markdown', element_id: STATUS_ELEMENT, content: view.status, text_size: 'notation' },
        ...(buttons.length > 0 ? [buttonsElement(buttons)] : []),
      ],
    },
  };
}
