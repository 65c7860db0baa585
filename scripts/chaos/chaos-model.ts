import { defaultScript } from '../../test/fakes/fake-anthropic/default-script.js';
import type { Reply, ScriptRequest } from '../../test/fakes/fake-anthropic/fake-anthropic-types.js';

/** How often an `echo: <token>` answer repeats its token, and how it streams. */
const REPEATS = 12;
const CHUNK = 6;
const CHUNK_DELAY_MS = 60;
/** A `long: tok…` answer (a message the user stops): the token 60 times, over about 6–7 s. */
const LONG_REPEATS = 60;
const LONG_CHUNK_DELAY_MS = 60;

/**
 * The fake Anthropic API's script for the real-engine chaos run: the default command language,
 * except that `echo: tok…` (every answerable chaos prompt) streams its answer — the token, repeated
 * — over about a second, so a reply card shows the answer for a while before the message is
 * finalised. The chaos run kills the bridge inside that window too (`answer-shown`). `long: tok…`
 * streams the same way for several seconds: the answer of a message the user then stops.
 */
export function chaosModelScript(req: ScriptRequest): Reply {
  const m = req.lastUserToolResults.length === 0 ? /^(echo|long):\s*(tok\w+)$/.exec(req.lastUserText.trim()) : null;
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
