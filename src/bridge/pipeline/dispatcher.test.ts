import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import type { RoutedRecord, SpoolRecord } from '../spool/spool-record.js';
import { Dispatcher } from './dispatcher.js';

function record(n: number, userId = 'ou_a'): SpoolRecord {
  return {
    schema: 1,
    message: {
      id: `m${n}`,
      channel: 'fake',
      platformMessageId: `om_${n}`,
      userId,
      chatId: 'oc',
      chatType: 'p2p',
      text: `text ${n}`,
      images: [],
      receivedAt: '2026-05-05T10:00:00.000Z',
    },
    acceptedAt: '2026-05-05T10:00:00.000Z',
    seq: n,
    attempts: 0,
  };
}

/** A gate per message id: the step waits until `open(id)`. */
function gates() {
  const opened = new Map<string, () => void>();
  const waiting = new Map<string, Promise<void>>();
  const gate = (id: string) => {
    if (!waiting.has(id)) waiting.set(id, new Promise<void>((resolve) => opened.set(id, resolve)));
    return waiting.get(id) as Promise<void>;
  };
  return {
    wait: gate,
    open(id: string) {
      void gate(id);
      opened.get(id)?.();
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('Dispatcher: routing lanes', () => {
  it("routes one user's records one at a time in arrival order, other users alongside", async () => {
    const log: string[] = [];
    const routeGate = gates();
    const d = new Dispatcher({
      concurrency: 4,
      logger: silentLogger,
      route: async (r) => {
        log.push(`route ${r.message.id}`);
        await routeGate.wait(r.message.id);
        r.target = { kind: 'session', sessionId: `s-${r.message.userId}`, cwd: '/w' };
      },
      run: async (r) => void log.push(`run ${r.message.id}`),
    });
    for (const r of [record(1), record(2), record(3, 'ou_b'), record(4)]) d.enqueue(r);
    await tick();
    expect(log).toEqual(['route m1', 'route m3']);
    routeGate.open('m1');
    await tick();
    expect(log).toEqual(['route m1', 'route m3', 'run m1', 'route m2']);
    routeGate.open('m2');
    await tick();
    expect(log.slice(4)).toEqual(['run m2', 'route m4']);
    routeGate.open('m3');
    routeGate.open('m4');
    await d.whenIdle();
    expect(log.filter((l) => l.startsWith('route'))).toEqual(['route m1', 'route m3', 'route m2', 'route m4']);
    expect(log.filter((l) => l.startsWith('run')).sort()).toEqual(['run m1', 'run m2', 'run m3', 'run m4']);
  });

  it('routes without a worker and runs a record only after its routing step returned', async () => {
    const runGate = gates();
    const routeGate = gates();
    const routing: string[] = [];
    const ran: string[] = [];
    const d = new Dispatcher({
      concurrency: 1,
      logger: silentLogger,
      route: async (r) => {
        routing.push(r.message.id);
        // A target set early (before it is persisted) must not let the record start.
        r.target = { kind: 'reply', reply: { kind: 'text', text: 'x' } };
        await routeGate.wait(r.message.id);
      },
      run: async (r: RoutedRecord) => {
        ran.push(r.message.id);
        await runGate.wait(r.message.id);
      },
    });
    routeGate.open('m1');
    d.enqueue(record(1));
    d.enqueue(record(2, 'ou_b'));
    await tick();
    // The only worker runs m1, yet m2's routing step is under way.
    expect(ran).toEqual(['m1']);
    expect(routing).toEqual(['m1', 'm2']);
    runGate.open('m1');
    await tick();
    expect(ran).toEqual(['m1']);
    routeGate.open('m2');
    runGate.open('m2');
    await d.whenIdle();
    expect(ran).toEqual(['m1', 'm2']);
  });

  it('stop() ends a routing step that waits to retry; the record stays for the next start', async () => {
    const routed: string[] = [];
    const d = new Dispatcher({
      concurrency: 1,
      logger: silentLogger,
      route: (r, signal) =>
        new Promise<void>((resolve) => {
          routed.push(r.message.id);
          signal.addEventListener('abort', () => resolve(), { once: true });
        }),
      run: async () => undefined,
    });
    d.enqueue(record(1));
    d.enqueue(record(2));
    await tick();
    expect(d.queued).toBe(2);
    expect(await d.stop(1000)).toEqual({ unfinished: 0 });
    expect(routed).toEqual(['m1']);
    expect(d.queued).toBe(0);
  });
});
