/** A whitespace character other than a plain space, or two spaces in a row: what `\s+` → ' ' would change. */
const NEEDS_COLLAPSE = /[^\S ]| {2}/;

/** How much of a text a preview looks at, in UTF-16 units: whitespace runs collapse, so more than `max`. */
const LOOK_AT = 1024;

/**
 * A text as one line of at most `max` (≤ 128) characters (code points) for previews and titles:
 * every whitespace run becomes one space, the ends are trimmed, and a longer text is cut to
 * `max - 1` characters plus `…`. Only the first 1,024 UTF-16 units are looked at, so a huge
 * prompt costs what a short one does — the same for every `max`, which makes a shorter preview of
 * a preview the shorter preview of the text (`preview(preview(t, 100), 80) === preview(t, 80)`).
 *
 * Built from string built-ins on purpose: it runs a few times per session file during a cold
 * scan, before V8 has optimised anything, and a character loop in JavaScript measured slower
 * there than a regular-expression replace (compiled once, native).
 *
 * @example
 *   preview('  fix\n\nthe   build  ', 80) // 'fix the build'
 */
export function preview(text: string, max: number): string {
  const head = text.slice(0, LOOK_AT);
  // Most texts have only single plain spaces: then the replace (a new string) changes nothing.
  const flat = (NEEDS_COLLAPSE.test(head) ? head.replace(/\s+/g, ' ') : head).trim();
  if (flat.length <= max) return flat; // no more code points than UTF-16 units
  const chars = Array.from(flat);
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}
