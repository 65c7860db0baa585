/**
 * An async iterable fed by `push` and ended by `close`: the streaming input of a long-lived
 * conversation. Items pushed after `close` are dropped; a consumer waiting for the next item is
 * released by `close`.
 *
 * @example
 *   const input = new InputQueue<string>();
 *   input.push('a'); input.close();
 *   for await (const item of input) …   // 'a'
 */
export class InputQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private wake: (() => void) | undefined;
  private closed = false;

  push(item: T): void {
    if (this.closed) return;
    this.items.push(item);
    this.release();
  }

  close(): void {
    this.closed = true;
    this.release();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private release(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
