import { defaultScript } from '../../test/fakes/fake-anthropic/default-script.js';
import type { Reply, ScriptRequest } from '../../test/fakes/fake-anthropic/fake-anthropic-types.js';

/** How often an `echo: <token>` answer repeats its token, and how it streams. */
const REPEATS = 12;
const CHUNK = 6;
const CHUNK_DELAY_MS = 60;
/** A `long: tok…` answer (a message the user stops): the token 60 times, over about 6–7 s. */
const LONG_REPEATS = 60;
const LONG_CHUNK_DELAY_MS = 60;
const CHAOS_PROMPT = /^(echo|long):\s*(tok\w+)$/;

/**
 * The fake Anthropic API's script for the real-engine chaos run: the default command language,
 * except that `echo: tok…` (every answerable chaos prompt) streams its answer — the token, repeated
 * — over about a second, so a reply card shows the answer for a while before the message is
 * finalised. The chaos run kills the bridge inside that window too (`answer-shown`). `long: tok…`
 * streams the same way for several seconds: the answer of a message the user then stops. After
 * cc-linker's continue instruction the interrupted prompt is answered, as a model would carry on
 * with its task (a continued answer must still carry its message's token).
 */
export function chaosModelScript(req: ScriptRequest): Reply {
  if (req.lastUserToolResults.length > 0) return defaultScript(req);
  // cc-linker's continue instruction after an interrupted turn: like a model, answer the interrupted
  // prompt — the last user text before it that is not itself a continue instruction.
  const m = req.lastUserText.trim().startsWith('(cc-linker) ')
    ? CHAOS_PROMPT.exec(
        userTexts(req.messages)
          .filter((t) => t !== '' && !t.startsWith('(cc-linker) '))
          .pop() ?? '',
      )
    : CHAOS_PROMPT.exec(req.lastUserText.trim());
  const token = m?.[2];
  if (!token) return defaultScript(req);
  const long = m?.[1] === 'long';
  return {
    text: Array(long ? LONG_REPEATS : REPEATS)
      .fill(token)
      .join(' '),
    chunkSize: CHUNK,
    chunkDelayMs: long ? LONG_CHUNK_DELAY_MS : CHUNK_DELAY_MS,
  };
}

/** The text of each user message, in order, without the CLI's reminders ('' for tool results only). */
function userTexts(messages: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const msg of messages) {
    const { role, content } = (msg ?? {}) as { role?: unknown; content?: unknown };
    if (role !== 'user') continue;
    const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
    const texts = Array.isArray(blocks)
      ? (blocks as Array<{ type?: unknown; text?: unknown }>).flatMap((b) =>
          b?.type === 'text' && typeof b.text === 'string' ? [b.text] : [],
        )
      : [];
    out.push(
      texts
        .join('\n')
        .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '')
        .trim(),
    );
  }
  return out;
}
