import type { CardButton } from '../../bridge/reply-model.js';
import type { Language } from '../../core/i18n.js';
import type { JsonLedger } from '../../core/json-ledger.js';
import { dingtalkMessages } from './dingtalk-messages.js';
import type { OptionStore } from './option-store.js';
import { optionsMarkdown, titleOf } from './render-markdown.js';

/** What the first message of a markdown reply needs from the outbox. */
export interface ReplyOpeningDeps {
  lang: Language;
  options: OptionStore;
  /** The outbox's sent ledger (delivery key → sent message). */
  sent: JsonLedger<string>;
  sendOnce(userId: string, key: string, title: string, text: string): Promise<string>;
}

/** Ledger key recording that the reply opened under `key` sent its own opening message. */
export const openingKey = (key: string): string => `${key}:opening`;
/** Delivery key of the "started" message of a reply that took over its "Queued" message. */
export const startedKey = (key: string): string => `${key}:started`;

/** The sentence of the opening (`waiting`) and of the "started" message; a tappable Stop below. */
function openingText(sentence: string, buttons: CardButton[], lang: Language, token: string | undefined) {
  const text = [sentence, optionsMarkdown(buttons, lang, token)].filter((p) => p !== '').join('\n\n');
  return { title: titleOf(sentence), text };
}

async function sendWithButtons(
  d: ReplyOpeningDeps,
  userId: string,
  key: string,
  sendKey: string,
  sentence: 'waiting' | 'started',
  buttons: CardButton[],
): Promise<string> {
  const known = await d.sent.get(sendKey);
  if (known) return known;
  // Offered under the reply's key, before the send: a waited message's Cancel and its Stop share
  // one token (they stop the same run), and a tap the moment the message shows already counts.
  const token = await d.options.offer(
    userId,
    key,
    buttons.map((b) => b.action),
  );
  const { title, text } = openingText(dingtalkMessages(d.lang)(sentence), buttons, d.lang, token);
  return d.sendOnce(userId, sendKey, title, text);
}

/**
 * The message a markdown reply shows while its run works (docs/design.md#dingtalk). A new reply
 * sends its opening ("working on it") under `key`. A reply that re-opens a message
 * (`existingMessageId`) is either re-opened after a restart — its own opening, recorded under
 * `openingKey(key)`: nothing is sent — or takes over the "Queued" message of a message that waited
 * and now runs: the "started" message goes out once (`startedKey(key)`), since robot messages
 * cannot be edited into the running reply. Either message lists `buttons` (the run's Stop) as
 * tappable options. Returns the reply's message id.
 */
export async function sendReplyOpening(
  d: ReplyOpeningDeps,
  userId: string,
  key: string,
  o: { existingMessageId?: string; buttons?: CardButton[] } = {},
): Promise<string> {
  const buttons = o.buttons ?? [];
  const existing = o.existingMessageId;
  if (existing === undefined) {
    const ref = await sendWithButtons(d, userId, key, key, 'waiting', buttons);
    // Recorded before the bridge learns the id, so a re-open after a restart always finds it.
    await d.sent.set(openingKey(key), ref);
    return ref;
  }
  if ((await d.sent.get(openingKey(key))) !== existing)
    await sendWithButtons(d, userId, key, startedKey(key), 'started', buttons);
  return existing;
}
