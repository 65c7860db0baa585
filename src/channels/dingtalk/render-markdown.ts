import { OptionStore } from './option-store.js';
import type { CardAction, CardButton, CardReply, CardSection, Reply } from '../../bridge/reply-model.js';
import type { Language } from '../../core/i18n.js';
import { dingtalkMessages } from './dingtalk-messages.js';
import { tapContent, tapUrl } from './option-tap.js';

/**
 * Longest text we put in one markdown message (DingTalk documents no exact figure for
 * `sampleMarkdown`; 5,000 characters are delivered in practice). The bridge splits long answers
 * at {@link DINGTALK_MAX_TEXT_CHUNK} source characters, leaving room for the title, the footer and
 * the escaping.
 */
export const DINGTALK_MAX_TEXT = 5_000;
export const DINGTALK_MAX_TEXT_CHUNK = 4_000;
/** The title DingTalk shows in the chat list and the notification. */
const MAX_TITLE = 40;

/** A reply as one DingTalk markdown message, with the actions its numbered options stand for. */
export interface RenderedMarkdown {
  title: string;
  text: string;
  /** Option n (1-based) of the message is `actions[n - 1]`; empty = no options. */
  actions: CardAction[];
}

/**
 * Text a person wrote, shown literally: markdown punctuation backslash-escaped, `<` and `&` as
 * entities (DingTalk's markdown also renders a few HTML tags), line breaks kept.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]()#+\-!|~])/g, '\\$1');
}

/** Markdown the agent wrote: its formatting kept, HTML tags neutralised. */
export function answerMarkdown(text: string): string {
  return text.replace(/&(?![a-z]+;|#\d+;)/gi, '&amp;').replace(/</g, '&lt;');
}

function sectionMarkdown(section: CardSection): string {
  switch (section.type) {
    case 'markdown':
    case 'answer':
      return answerMarkdown(section.text.trim());
    case 'plain':
      return escapeMarkdown(section.text.trim());
    case 'quote':
      return section.text.trim() === ''
        ? ''
        : escapeMarkdown(section.text.trim())
            .split('\n')
            .map((l) => `> ${l}`)
            .join('\n');
    case 'divider':
      return '---';
    case 'fields':
      return section.fields.map((f) => `- **${escapeMarkdown(f.label)}**: ${escapeMarkdown(f.value)}`).join('\n');
  }
}

/** At most `max` characters: cut, with an ellipsis, never inside an escape or entity. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const amp = text.lastIndexOf('&', end);
  if (amp >= 0 && amp > end - 8 && !text.slice(amp, end).includes(';')) end = amp;
  if (text[end - 1] === '\\') end -= 1;
  return `${text.slice(0, end)}…`;
}

/** A plain one-line title from any text. */
export function titleOf(text: string): string {
  const line =
    text
      .replace(/[#*_`>[\]()!|~\\]/g, '')
      .trim()
      .split('\n')[0] ?? '';
  return (line.length > MAX_TITLE ? `${line.slice(0, MAX_TITLE - 1)}…` : line) || 'cc-linker';
}

/**
 * Buttons as a numbered list (DingTalk's markdown messages have no buttons). With `prompt`
 * (the token the buttons were offered under) each label is a link whose tap sends `<n> #<token>` as
 * the owner (`option-tap.ts`), and the hint names the token, so typing it works where links don't
 * render; a prompt's answers also take the number alone.
 */
export function optionsMarkdown(buttons: CardButton[], lang: Language, prompt: string | undefined): string {
  const t = dingtalkMessages(lang);
  if (buttons.length === 0) return '';
  const numbered = OptionStore.offers(buttons.map((b) => b.action));
  const hint = !prompt
    ? `**${t('replyWithNumber')}**`
    : numbered
      ? `**${t('tapOrReply')}** · #${prompt}`
      : `**${t('tapOrType', { token: prompt })}**`;
  const label = (text: string, n: number) =>
    prompt ? `[${escapeMarkdown(text)}](${tapUrl(tapContent(n, prompt))})` : escapeMarkdown(text);
  return [hint, buttons.map((b, i) => `${i + 1}. ${label(b.label, i + 1)}`).join('\n')].join('\n\n');
}

/**
 * A card as one markdown message: the title as a heading, the sections, the footer in italics,
 * then its buttons as numbered options (`optionsMarkdown`). The section whose text is
 * `answer.text` is cut to what fits with `answer.note` under it; `kept` = characters of it shown.
 */
export function cardMarkdown(
  card: CardReply,
  lang: Language,
  answer?: { text: string; note: string },
  prompt?: string,
): RenderedMarkdown & { kept: number } {
  const actions = (card.buttons ?? []).map((b) => b.action);
  const options = optionsMarkdown(card.buttons ?? [], lang, prompt);
  const index =
    answer && answer.text !== ''
      ? card.sections.findIndex((s) => (s.type === 'plain' || s.type === 'answer') && s.text === answer.text)
      : -1;
  const parts = card.sections.map((s, i) => (i === index ? '' : sectionMarkdown(s)));
  const head = `### ${escapeMarkdown(card.title)}`;
  const foot = card.footer ? `*${escapeMarkdown(card.footer)}*` : '';
  const join = (list: string[]) => list.filter((p) => p !== '').join('\n\n');
  let kept = answer?.text.length ?? 0;
  if (index >= 0 && answer) {
    const section = card.sections[index];
    const render = (s: string) => (section?.type === 'plain' ? escapeMarkdown(s) : answerMarkdown(s));
    const budget = DINGTALK_MAX_TEXT - join([head, ...parts, foot, options]).length - 4;
    if (render(answer.text).length <= budget) parts[index] = render(answer.text);
    else {
      // Source characters that render within the budget, note included (escaping only grows text).
      kept = Math.max(0, budget - answer.note.length - 4);
      while (kept > 0 && render(answer.text.slice(0, kept)).length > budget - answer.note.length - 4) kept -= 200;
      kept = Math.max(0, kept);
      // End at a line break (else a space) in the last fifth, so no line is split between messages.
      const nl = answer.text.lastIndexOf('\n', kept);
      const sp = answer.text.lastIndexOf(' ', kept);
      const at = nl > kept * 0.8 ? nl : sp > kept * 0.8 ? sp : kept;
      kept = at;
      parts[index] = `${render(answer.text.slice(0, kept))}\n\n*${escapeMarkdown(answer.note)}*`;
    }
  }
  // The options come whole after the cut: a prompt stays answerable whatever its text.
  const body = join([head, ...parts, foot]);
  const text = options
    ? join([cut(body, DINGTALK_MAX_TEXT - options.length - 2), options])
    : cut(body, DINGTALK_MAX_TEXT);
  return { title: titleOf(card.title), text, actions, kept };
}

/**
 * A `Reply` as one markdown message (a text reply is the agent's or the bridge's markdown); with
 * `prompt`, the token of an offered prompt, its options are tappable.
 */
export function renderMarkdown(reply: Reply, lang: Language, prompt?: string): RenderedMarkdown {
  if (reply.kind === 'text') {
    const text = answerMarkdown(reply.text);
    return { title: titleOf(reply.text), text: cut(text.trim() === '' ? '…' : text, DINGTALK_MAX_TEXT), actions: [] };
  }
  const { title, text, actions } = cardMarkdown(reply, lang, undefined, prompt);
  return { title, text, actions };
}
