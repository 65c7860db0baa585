/**
 * Keeps the last `max` characters of a stream of text (a child's stderr), so a failing run can
 * report what the child said last without holding everything it ever printed.
 *
 * @example const tail = new TextTail(4000); onStderr((t) => tail.push(t)); tail.text()
 */
export class TextTail {
  private buf = '';

  constructor(private readonly max: number) {}

  push(text: string): void {
    this.buf += text;
    if (this.buf.length > this.max * 2) this.buf = this.buf.slice(-this.max);
  }

  /** The kept tail (at most `max` characters). */
  text(): string {
    return this.buf.length > this.max ? this.buf.slice(-this.max) : this.buf;
  }

  /** The last non-empty line of the tail, trimmed; '' when there is none. */
  lastLine(): string {
    const lines = this.text()
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l.length > 0);
    return lines.at(-1) ?? '';
  }
}
