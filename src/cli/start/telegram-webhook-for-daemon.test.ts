import { describe, expect, it } from 'vitest';
import { telegramWebhook } from './telegram-webhook-for-daemon.js';

describe('telegramWebhook (the daemon’s webhook option)', () => {
  it('is nothing while webhook_url is empty: long polling', () => {
    expect(telegramWebhook({ webhook_url: '', webhook_listen: '127.0.0.1:8443', webhook_secret: 's' })).toEqual({});
  });

  it('splits webhook_listen into host and port, IPv6 brackets dropped', () => {
    const url = 'https://bot.example.com/tg';
    expect(telegramWebhook({ webhook_url: url, webhook_listen: '[::1]:9000', webhook_secret: '' })).toEqual({
      webhook: { url, listen: { host: '::1', port: 9000 }, secret: '' },
    });
    expect(
      telegramWebhook({ webhook_url: url, webhook_listen: 'localhost:8443', webhook_secret: 'x' }).webhook,
    ).toEqual({
      url,
      listen: { host: 'localhost', port: 8443 },
      secret: 'x',
    });
  });
});
