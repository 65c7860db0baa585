import type { RunSpec } from './allowlist.js';

/**
 * Adds the command's real limit flag with its default when the model did not pass it: a bounded result
 * keeps the token budget predictable. It runs after the gate allowed the call and before exec; the
 * model sees the effect in the tool result.
 *
 * Which flag is the command's own, as the real CLI has it (an early design assumed `--limit`
 * everywhere; `search --limit` makes the CLI exit 1): `note list`, `memory show|list` and
 * `session list` get `--limit 20`; `search` gets `--top-k 5` (it has no `--limit`); `skill list`,
 * `mcp list`, `status` and `did` get nothing. The flag counts as present in its long (`--limit 5`,
 * `--limit=5`) or short (`-n 5`) form.
 *
 * Precondition: `argv` comes from an allowing gate decision for `spec`, so no value or positional
 * starts with `-` and every token starting with `-` is a flag.
 *
 * @example
 *   applyDefaults(['search', 'RAG'], spec)            // ['search', 'RAG', '--top-k', '5']
 *   applyDefaults(['note', 'list', '-n', '3'], spec)  // ['note', 'list', '-n', '3']
 */
export function applyDefaults(argv: readonly string[], spec: RunSpec): string[] {
  const limit = spec.defaultLimit;
  if (!limit) return [...argv];
  const { name, short } = limit.flag;
  const present = argv.some(
    (token) => token === name || token.startsWith(`${name}=`) || (short !== undefined && token === short),
  );
  return present ? [...argv] : [...argv, name, String(limit.value)];
}
