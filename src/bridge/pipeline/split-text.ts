/**
 * Splits a long reply into chunks of at most `max` characters, preferring paragraph boundaries,
 * then line boundaries, then sentence ends, and only as a last resort the middle of a line. Code
 * fences are closed at the end of a chunk and reopened at the start of the next, so each message
 * renders on its own. Deterministic: the same text always gives the same chunks, which is what
 * makes per-chunk delivery receipts meaningful after a restart.
 */
export function splitText(text: string, max: number): string[] {
  if (max < 16) throw new RangeError('splitText: max must be at least 16');
  if (text.length <= max) return text.length > 0 ? [text] : [];
  const chunks: string[] = [];
  let rest = text;
  let openFence: string | null = null;
  while (rest.length > 0) {
    const prefix = openFence ? `${openFence}\n` : '';
    const budget = max - prefix.length - 4; // room for a closing fence
    if (prefix.length + rest.length <= max) {
      chunks.push(prefix + rest);
      break;
    }
    const cut = findCut(rest, budget);
    let piece = rest.slice(0, cut);
    rest = rest.slice(cut).replace(/^\n+/, '');
    const fence = trailingOpenFence(prefix + piece, openFence);
    if (fence) piece = `${piece.replace(/\n*$/, '')}\n\`\`\``;
    chunks.push(prefix + piece);
    openFence = fence;
  }
  return chunks;
}

function findCut(text: string, budget: number): number {
  const window = text.slice(0, budget);
  for (const sep of ['\n\n', '\n', '。', '. ', '！', '？', '; ', ' ']) {
    const at = window.lastIndexOf(sep);
    if (at >= budget * 0.5) return at + sep.length;
  }
  // Never split a surrogate pair.
  const code = text.charCodeAt(budget - 1);
  return code >= 0xd800 && code <= 0xdbff ? budget - 1 : budget;
}

/** Returns the fence opener (e.g. "```ts") if `text` ends inside a code block. */
function trailingOpenFence(text: string, carried: string | null): string | null {
  let open: string | null = carried ? carried : null;
  let first = true;
  for (const line of text.split('\n')) {
    if (first && carried) {
      first = false;
      continue;
    }
    first = false;
    const m = /^\s*(```+)(.*)$/.exec(line);
    if (m) open = open ? null : `${m[1] ?? '```'}${(m[2] ?? '').trim()}`;
  }
  return open;
}
