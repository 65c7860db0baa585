/**
 * Quotes a value for a POSIX shell only when it needs it, for commands we print for the user to
 * paste (`cd <cwd> && claude --resume <id>`) or hand to Claude (the hook command).
 *
 * @example
 *   shellQuote('/tmp/a b') // "'/tmp/a b'"
 */
export function shellQuote(value: string): string {
  if (/^[A-Za-z0-9_/.,:@%+=-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
