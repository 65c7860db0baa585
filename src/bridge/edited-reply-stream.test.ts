import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Config } from '../core/config-schema.js';
import { silentLogger } from '../core/logger.js';
import { EditedReplyStream } from './edited-reply-stream.js';

const STREAM: Config['stream'] = {
  enabled: true,
  throttle_ms: 100,
  show_thinking: false,
  max_card_bytes: 30_000,
  fallback_to_text: true,
  show_action_buttons: true,
  keep_processing_card: false,
};

/** A stream whose message records every edit; the first edit fails (the platform had a passing fault). */
function failingOnce() {
  const edits: string[] = [];
  let fail = true;
  const stream = new EditedReplyStream<string>(
    'm1',
    {
      view: (state) => ({ payload: state.text, key: state.text, shownChars: state.text.length }),
      final: async (_card, fullText) => ({ payload: `final ${fullText}`, kept: fullText.length }),
      edit: async (payload) => {
        edits.push(payload);
        if (fail) {
          fail = false;
          throw new Error('502');
        }
      },
      retryable: () => true,
    },
    { stream: STREAM, logger: silentLogger, minGapMs: 100 },
  );
  return { stream, edits };
}

const state = (text: string) => ({ phase: 'processing' as const, text, thinking: '', toolCount: 0, elapsedMs: 0 });

afterEach(() => {
  vi.useRealTimers();
});

describe('EditedReplyStream.abandon', () => {
  it('a failed edit is tried again later; once abandoned, never', async () => {
    vi.useFakeTimers();
    const kept = failingOnce();
    kept.stream.update(state('hello'));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(kept.edits).toEqual(['hello', 'hello']);

    const left = failingOnce();
    left.stream.update(state('hello'));
    await vi.advanceTimersByTimeAsync(10);
    expect(left.edits).toEqual(['hello']);
    await left.stream.abandon();
    left.stream.update(state('hello again'));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(left.edits).toEqual(['hello']);
  });
});
