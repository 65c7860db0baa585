/**
 * The text a tapped prompt option sends, and reading it back (docs/design.md#dingtalk).
 *
 * Robot markdown messages have no buttons, but a link `dtmd://dingtalkclient/sendMessage?content=…`
 * makes the DingTalk client send `content` into the chat as the user. Each option of a prompt is
 * such a link; its content names the option and the prompt: `1 #k3f9` (number, space, `#` and the
 * prompt's token), so a tap on an older prompt answers that prompt. The number alone still answers
 * the newest prompt.
 */

/** Letters and digits of a prompt token: lower case, without the look-alikes 0/o and 1/l/i. */
export const TOKEN_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const TOKEN_LENGTH = 4;

/** What a reply that answers a prompt says: option `n` (1-based), of the prompt `token` if named. */
export interface ChoiceText {
  n: number;
  token?: string;
}

/** The text a tap on option `n` of prompt `token` sends. */
export function tapContent(n: number, token: string): string {
  return `${n} #${token}`;
}

/**
 * The link that sends `content` as the user. Every character outside letters, digits and `-._~`
 * is percent-encoded (also `(`, `)`, `*`, `!` and `'`, which `encodeURIComponent` keeps), so the
 * target never ends the markdown link early.
 */
export function tapUrl(content: string): string {
  const encoded = encodeURIComponent(content).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `dtmd://dingtalkclient/sendMessage?content=${encoded}`;
}

// Any four letters or digits after `#` make it a tap: a token no prompt has is answered "expired",
// never run as a message.
const CHOICE = new RegExp(`^(\\d{1,2})(?:\\s*#\\s*([a-z0-9]{${TOKEN_LENGTH}}))?$`);

/**
 * A reply that answers a prompt — `2`, or a tap's `2 #k3f9` — or undefined for anything else,
 * which is then an ordinary message (`1 #`, `#k3f9`, `1 please`). Spaces around and between the
 * parts don't matter; full-width digits, `＃` and letters count as their ASCII forms (NFKC), and
 * the token as lower case.
 */
export function parseChoice(text: string): ChoiceText | undefined {
  const m = CHOICE.exec(text.normalize('NFKC').trim().toLowerCase());
  if (!m) return undefined;
  const n = Number(m[1]);
  if (n < 1) return undefined;
  return { n, ...(m[2] ? { token: m[2] } : {}) };
}
