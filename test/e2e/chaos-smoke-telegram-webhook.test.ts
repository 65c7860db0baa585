import { expect } from 'vitest';
import { chaosSmokeOverChatApp } from './chaos-smoke-chat-app.js';

// Telegram in webhook mode: the fake POSTs every update to the bridge's listener and sends it again
// until a 2xx; kills while a POST is unanswered, failed and lost-answer POSTs, plus the Bot API faults.
chaosSmokeOverChatApp('telegram', 5, {
  args: ['--telegram-mode', 'webhook'],
  check: (report) => {
    expect(report.platform.mode).toBe('webhook');
    // Every update came by POST (none by getUpdates), some POSTs failed and Telegram sent them again.
    expect(report.webhook?.posts).toBeGreaterThanOrEqual(report.verdict.sent);
    expect(report.webhook?.failed).toBeGreaterThan(0);
    // Never given up: a given-up update would be a lost message.
    expect(report.webhook?.givenUp).toBe(0);
    expect(report.faults.killsDuringDelivery, JSON.stringify(report.faults)).toBeGreaterThanOrEqual(1);
  },
});
