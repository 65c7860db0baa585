import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ActivityWatchdog } from './activity-watchdog.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('ActivityWatchdog', () => {
  it('fires after idleMs without a touch; touches push it back', () => {
    const onIdle = vi.fn();
    const dog = new ActivityWatchdog(1000, onIdle);
    vi.advanceTimersByTime(600);
    dog.touch();
    vi.advanceTimersByTime(600);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(500);
    expect(onIdle).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('does not fire while paused (nested), and forgives the silence before resume', () => {
    const onIdle = vi.fn();
    const dog = new ActivityWatchdog(1000, onIdle);
    dog.pause();
    dog.pause();
    vi.advanceTimersByTime(5000);
    dog.resume();
    vi.advanceTimersByTime(5000);
    expect(onIdle).not.toHaveBeenCalled();
    dog.resume();
    vi.advanceTimersByTime(999);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1001);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('a probe showing a recent write counts as activity; a throwing probe does not', () => {
    const onIdle = vi.fn();
    let written = Date.now();
    new ActivityWatchdog(1000, onIdle, () => written);
    vi.advanceTimersByTime(900);
    written = Date.now();
    vi.advanceTimersByTime(900);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(onIdle).toHaveBeenCalledTimes(1);
    const other = vi.fn();
    new ActivityWatchdog(100, other, () => {
      throw new Error('gone');
    });
    vi.advanceTimersByTime(150);
    expect(other).toHaveBeenCalledTimes(1);
  });

  it('stop() prevents firing', () => {
    const onIdle = vi.fn();
    new ActivityWatchdog(100, onIdle).stop();
    vi.advanceTimersByTime(1000);
    expect(onIdle).not.toHaveBeenCalled();
  });
});
