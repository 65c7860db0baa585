import { defaultScript } from '../../test/fakes/fake-anthropic/default-script.js';
import type { Reply, ScriptRequest } from '../../test/fakes/fake-anthropic/fake-anthropic-types.js';

/** How often an `echo: <token>` answer repeats its token, and how it streams. */
const REPEATS = 12;
const CHUNK = 6;
const CHUNK_DELAY_MS = 60;

/**
 * The fake Anthropic API's script for the real-engine chaos run: the default command language,
 * except that `echo: tok…` (every answerable chaos prompt) streams its answer — the token, repeated
 * — over about a second, so a reply card shows the answer for a while before the message is
 * finalised. The chaos run kills the bridge inside that window too (`answer-shown`).
 */
export function chaosModelScript(req: ScriptRequest): Reply {
  const token =
    req.lastUserToolResults.length === 0 ? /^echo:\s*(tok\w+)$/.exec(req.lastUserText.trim())?.[1] : undefined;
  if (!token) return defaultScript(req);
  return { text: Array(REPEATS).fill(token).join(' '), chunkSize: CHUNK, chunkDelayMs: CHUNK_DELAY_MS };
}
