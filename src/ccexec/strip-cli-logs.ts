/**
 * A log line the real CLI (0.165.x) prints to stdout whenever it opens its database, `--json` or not:
 * `[AppConfig] Configuration loaded`, `[DatabaseManager] Database initialized: <path>`, … A search for
 * the first `[` cannot skip them, since they start with `[` themselves.
 */
const LOG_LINE = /^\[(AppConfig|DatabaseManager)\] /;

/**
 * Removes the ChainlessChain CLI's own log lines (`[AppConfig] …`, `[DatabaseManager] …`) from its
 * stdout. They appear even with `--json`, break JSON parsing, waste the model's 4 KB, and
 * `[DatabaseManager] Database initialized: /home/<user>/…` reveals the user's home directory.
 * Every other line, and the line endings, are kept exactly.
 *
 * @example
 *   stripCliLogs('[AppConfig] Configuration loaded\n[]\n[DatabaseManager] Database closed\n') // '[]\n'
 */
export function stripCliLogs(stdout: string): string {
  if (!stdout.includes('[AppConfig] ') && !stdout.includes('[DatabaseManager] ')) return stdout;
  const lines = stdout.split('\n');
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const isLast = i === lines.length - 1;
    if (LOG_LINE.test(line)) {
      // A log line that is the unterminated tail disappears whole; otherwise drop it with its newline.
      continue;
    }
    kept.push(isLast ? line : `${line}\n`);
  }
  return kept.join('');
}
