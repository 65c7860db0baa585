import { describe, expect, it } from 'vitest';
import { InputQueue } from './input-queue.js';

async function collect<T>(queue: InputQueue<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of queue) out.push(item);
  return out;
}

describe('InputQueue', () => {
  it('yields what was pushed, in order, and ends on close', async () => {
    const queue = new InputQueue<number>();
    const all = collect(queue);
    queue.push(1);
    await Promise.resolve();
    queue.push(2);
    queue.push(3);
    queue.close();
    expect(await all).toEqual([1, 2, 3]);
  });

  it('drops items pushed after close and releases a waiting consumer', async () => {
    const queue = new InputQueue<string>();
    const all = collect(queue);
    await new Promise((r) => setTimeout(r, 5));
    queue.close();
    queue.push('late');
    expect(await all).toEqual([]);
  });
});
