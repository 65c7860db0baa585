/**
 * Checks that a text a user reads is in one language (docs/design.md#language): zh output has no
 * run of three or more English words in a sentence, en output has no CJK character. What is not a
 * sentence is taken out first: quotes (「…」 “…” "…" `…`), paths, URLs, ids, versions, options,
 * `cc-linker <command>` lines and the product names that stay as they are in both languages.
 */
import type { Language } from '../../src/core/i18n.js';

/** Product and format names kept verbatim in both languages. */
const NAMES = [
  'Claude Code SessionStart hook',
  'Claude Code',
  'ChainlessChain CLI',
  'Agent SDK',
  'Gemini CLI',
  'Qwen Code',
  'OpenCode',
  'Node.js',
];

/** Removes what is not prose: quoted text, code, paths, URLs, ids, commands and kept names. */
export function proseOf(text: string): string {
  let s = text;
  s = s.replace(/「[^」]*」|“[^”]*”|"[^"\n]*"|`[^`\n]*`/g, ' ');
  s = s.replace(/\bhttps?:\/\/\S+/g, ' ');
  s = s.replace(/(?:~|<[A-Z]+>|\.{0,2})?\/[^\s（）()，,：]+/g, ' ');
  s = s.replace(/\b(?:cc-linker|npm i|npm|claude)\b(?: [a-z][\w-]*| -[-\w]+| @?[\w@/.-]+)*/g, ' ');
  s = s.replace(/\[[\w.<>\u4e00-\u9fff]+\]/g, ' ');
  s = s.replace(/\b[\w-]+\.[\w.-]+\b/g, ' '); // file names, config keys, versions
  s = s.replace(/\b[0-9a-f]{8}(?:-[0-9a-f-]+)?\b/gi, ' ');
  for (const name of NAMES) s = s.split(name).join(' ');
  return s;
}

/**
 * The pieces of `text` in the wrong language for `lang`: for zh, each run of ≥ 3 English words;
 * for en, each run of CJK characters. An empty list means the text is in one language.
 */
export function foreignRuns(text: string, lang: Language): string[] {
  const prose = proseOf(text);
  if (lang === 'en') return prose.match(/[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]+/g) ?? [];
  return (prose.match(/[A-Za-z][A-Za-z'-]*(?:[ \t]+[A-Za-z][A-Za-z'-]*){2,}/g) ?? []).map((r) => r.trim());
}
