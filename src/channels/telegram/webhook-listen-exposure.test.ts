import { describe, expect, it } from 'vitest';
import { webhookListenExposure } from './webhook-listen-exposure.js';

describe('the warning for a webhook listening beyond this machine', () => {
  it.each(['127.0.0.1', '127.3.2.1', '::1', 'localhost', 'LOCALHOST'])('%s is loopback: nothing said', (host) => {
    expect(webhookListenExposure({ host, port: 8443 }, 'en')).toBeUndefined();
  });

  it.each([
    ['0.0.0.0', '0.0.0.0:8443'],
    ['192.168.1.5', '192.168.1.5:8443'],
    ['::', '[::]:8443'],
    ['bot.example.test', 'bot.example.test:8443'],
  ])('%s is not: says plain HTTP, the proxy, and 127.0.0.1', (host, address) => {
    const en = webhookListenExposure({ host, port: 8443 }, 'en');
    expect(en).toBe(
      `telegram.webhook_listen = ${address} is not a loopback address: the webhook takes plain HTTP there (no TLS), reachable from other machines. Keep it behind your HTTPS reverse proxy or tunnel only, or listen on 127.0.0.1:8443`,
    );
    const zh = webhookListenExposure({ host, port: 8443 }, 'zh');
    expect(zh).toContain(`telegram.webhook_listen = ${address} 不是本机回环地址`);
    expect(zh).toContain('明文 HTTP');
    expect(zh).toContain('127.0.0.1:8443');
  });
});
