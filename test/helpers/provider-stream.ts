import type { ProviderEvent } from '../../src/ccexec/providers/canonical.js';
import { ProviderError } from '../../src/ccexec/providers/provider-error.js';

/** Every event of a provider stream, in order. */
export async function collectEvents(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const ev of events) out.push(ev);
  return out;
}

/** The `ProviderError` a provider stream ends with (throws when it ends without one). */
export async function streamFailure(events: AsyncIterable<ProviderEvent>): Promise<ProviderError> {
  try {
    await collectEvents(events);
  } catch (err) {
    if (err instanceof ProviderError) return err;
    throw err;
  }
  throw new Error('the stream did not fail');
}
