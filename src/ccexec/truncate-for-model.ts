/**
 * What the model sees of a command's stdout: 4 KB. More would cost thousands of tokens per call over
 * several rounds; the full output stays available to the UI.
 */
export const MODEL_STDOUT_BYTES = 4096;

/** The result of `truncateForModel`: the text to show the model and whether anything was cut. */
export interface TruncatedText {
  readonly text: string;
  readonly truncated: boolean;
  /** UTF-8 size of the whole input. */
  readonly totalBytes: number;
  /** Line count of the whole input (a final newline does not start a new line). */
  readonly totalLines: number;
}

/**
 * Cuts `text` to at most `maxBytes` UTF-8 bytes for the model, never splitting a character, and
 * appends `\n… [TRUNCATED, total=N bytes, M lines]` when it cut — so a chatty command cannot blow
 * the context window and the model knows the view is partial.
 *
 * @example
 *   truncateForModel('a'.repeat(5000)).text.endsWith('… [TRUNCATED, total=5000 bytes, 1 lines]') // true
 */
export function truncateForModel(text: string, maxBytes: number = MODEL_STDOUT_BYTES): TruncatedText {
  const bytes = Buffer.from(text, 'utf8');
  const totalLines = countLines(text);
  if (bytes.length <= maxBytes) return { text, truncated: false, totalBytes: bytes.length, totalLines };
  let end = Math.max(0, maxBytes);
  // Step back over UTF-8 continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  const head = bytes.subarray(0, end).toString('utf8');
  return {
    text: `${head}\n… [TRUNCATED, total=${bytes.length} bytes, ${totalLines} lines]`,
    truncated: true,
    totalBytes: bytes.length,
    totalLines,
  };
}

function countLines(text: string): number {
  if (text === '') return 0;
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return text.endsWith('\n') ? lines - 1 : lines;
}
