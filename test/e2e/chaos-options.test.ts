import { describe, expect, it } from 'vitest';
import { parseChaosOptions, USAGE } from '../../scripts/chaos/options.js';

describe('npm run chaos -- --channel', () => {
  it('defaults to Feishu, takes telegram, slack and dingtalk, and --help names them', () => {
    expect(parseChaosOptions(['--seed', '3']).channel).toBe('feishu');
    expect(parseChaosOptions(['--channel', 'telegram', '--seed', '3'])).toMatchObject({
      channel: 'telegram',
      seed: 3,
      messages: 300,
    });
    expect(parseChaosOptions(['--channel', 'slack']).channel).toBe('slack');
    expect(parseChaosOptions(['--channel', 'dingtalk']).channel).toBe('dingtalk');
    expect(() => parseChaosOptions(['--help'])).toThrow(USAGE);
    expect(USAGE).toContain('--channel <c>');
    expect(USAGE).toContain('feishu (default), telegram, slack or dingtalk');
  });

  it('refuses an unknown channel, naming the ones it knows', () => {
    expect(() => parseChaosOptions(['--channel', 'teams'])).toThrow(
      '--channel must be feishu or telegram or slack or dingtalk, got teams',
    );
    expect(() => parseChaosOptions(['--channel'])).toThrow();
  });
});

describe('npm run chaos -- --telegram-mode', () => {
  it('defaults to polling, takes webhook with --channel telegram, and --help names it', () => {
    expect(parseChaosOptions(['--channel', 'telegram']).telegramMode).toBe('polling');
    expect(parseChaosOptions(['--channel', 'telegram', '--telegram-mode', 'webhook']).telegramMode).toBe('webhook');
    expect(USAGE).toContain('--telegram-mode <m>');
    expect(USAGE).toContain('[--telegram-mode polling|webhook]');
  });

  it('refuses an unknown mode, and the flag without --channel telegram', () => {
    expect(() => parseChaosOptions(['--channel', 'telegram', '--telegram-mode', 'push'])).toThrow(
      '--telegram-mode must be polling or webhook, got push',
    );
    expect(() => parseChaosOptions(['--telegram-mode', 'webhook'])).toThrow('--telegram-mode needs --channel telegram');
    expect(() => parseChaosOptions(['--channel', 'slack', '--telegram-mode', 'polling'])).toThrow(
      '--telegram-mode needs --channel telegram',
    );
  });
});
