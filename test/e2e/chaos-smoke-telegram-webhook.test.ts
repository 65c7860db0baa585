import { expect } from 'vitest';
import { chaosSmokeOverChatApp } from './chaos-smoke-chat-app.js';

// Telegram in webhook mode: the fake POSTs every update to the bridge's listener and sends it again
// until a 2xx; failed and lost-answer POSTs, plus the Bot API faults. The seed's plan SIGKILLs the
// bridge right after it answered a POST 200 (an answer before the update was safe would lose it);
// kills after an answered send are the polling smoke's (chaos-smoke-telegram.test.ts), the same code.
chaosSmokeOverChatApp('telegram', 4, {
  args: ['--telegram-mode', 'webhook'],
  killAfterAnsweredSend: false,
  check: (report) => {
    expect(report.platform.mode).toBe('webhook');
    // Every update came by POST (acks count only a POST answered 2xx); some failed and came again.
    expect(report.webhook?.posts).toBeGreaterThanOrEqual(report.verdict.sent);
    expect(report.webhook?.failed).toBeGreaterThan(0);
    // Never given up: a given-up update would be a lost message.
    expect(report.webhook?.givenUp).toBe(0);
    expect(report.faults.killsAfterDeliveryAnswered, JSON.stringify(report.faults)).toBeGreaterThanOrEqual(1);
  },
});
