import { describe, expect, it } from 'vitest';
import { readUntilResult } from './read-until-result.js';

type Msg = { type: string; n: number };

/** A message stream that yields `before`, then waits for `release()`, then yields `after` or throws `fail`. */
function gatedStream(before: Msg[], after: Msg[], fail?: Error) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  async function* messages(): AsyncGenerator<Msg> {
    yield* before;
    await gate;
    if (fail) throw fail;
    yield* after;
  }
  return { messages: messages(), release };
}

const settledYet = async (p: Promise<unknown>): Promise<boolean> => {
  let settled = false;
  void p.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((r) => setTimeout(r, 20));
  return settled;
};

describe('readUntilResult', () => {
  it('answers at the result while the stream goes on; later messages are read, not handed on', async () => {
    const seen: number[] = [];
    const s = gatedStream(
      [
        { type: 'assistant', n: 1 },
        { type: 'result', n: 2 },
      ],
      [{ type: 'system', n: 3 }],
    );
    const reading = readUntilResult(s.messages, (m) => seen.push(m.n));
    await reading.untilResult;
    expect(seen).toEqual([1, 2]);
    expect(await settledYet(reading.rest)).toBe(false); // the stream has not ended yet
    s.release();
    expect(await reading.rest).toBeUndefined();
    expect(seen).toEqual([1, 2]);
  });

  it('a failure before the result rejects the answer; rest resolves with it', async () => {
    const boom = new Error('exited with code 1');
    const s = gatedStream([{ type: 'assistant', n: 1 }], [], boom);
    const reading = readUntilResult(s.messages, () => undefined);
    s.release();
    await expect(reading.untilResult).rejects.toBe(boom);
    expect(await reading.rest).toBe(boom);
  });

  it('a failure after the result leaves the answer and shows up in rest', async () => {
    const boom = new Error('late');
    const s = gatedStream([{ type: 'result', n: 1 }], [], boom);
    const reading = readUntilResult(s.messages, () => undefined);
    await reading.untilResult;
    s.release();
    expect(await reading.rest).toBe(boom);
  });

  it('without a result the answer waits for the end of the stream', async () => {
    const s = gatedStream([{ type: 'assistant', n: 1 }], [{ type: 'assistant', n: 2 }]);
    const seen: number[] = [];
    const reading = readUntilResult(s.messages, (m) => seen.push(m.n));
    expect(await settledYet(reading.untilResult)).toBe(false);
    s.release();
    await reading.untilResult;
    expect(seen).toEqual([1, 2]);
  });

  it('an onMessage that throws ends the reading like a failing stream', async () => {
    const boom = new Error('parser');
    const s = gatedStream([{ type: 'assistant', n: 1 }], []);
    const reading = readUntilResult(s.messages, () => {
      throw boom;
    });
    await expect(reading.untilResult).rejects.toBe(boom);
    expect(await reading.rest).toBe(boom);
  });
});
