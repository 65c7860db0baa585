// An engine in front of the real one, for benches: the bridge is built before the real engine can
// be (it needs the harness's paths), and the bench reads the engine seam's times of each turn.
import type { AgentEngine, EngineRequest, EngineResult, EngineSendOptions } from '../src/engine/engine-types.js';

/**
 * Forwards every turn to `target` and records, from the `send` call, the ms to its first `text`
 * event (`first`) and to its result (`whole`) in `last`.
 */
export class SeamEngine implements AgentEngine {
  readonly agent = 'claude';
  readonly mode = 'sdk' as const;
  target: AgentEngine | undefined;
  last: { first: number; whole: number } | undefined;

  constructor(private readonly clock: () => number) {}

  async send(request: EngineRequest, options: EngineSendOptions = {}): Promise<EngineResult> {
    if (!this.target) throw new Error('SeamEngine: no target engine yet');
    const t0 = this.clock();
    let first = Number.NaN;
    const result = await this.target.send(request, {
      ...options,
      onEvent: (event) => {
        if (event.type === 'text' && Number.isNaN(first)) first = this.clock() - t0;
        options.onEvent?.(event);
      },
    });
    this.last = { first, whole: this.clock() - t0 };
    return result;
  }

  transcriptOf(sessionId: string, cwd: string): string | null {
    return this.target?.transcriptOf?.(sessionId, cwd) ?? null;
  }
}
