import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../core/default-config.js';
import { hostPort, isLoopbackHost, resolveBindAddress } from './bind-address.js';

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['::1', true],
    ['[::1]', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.5', false],
    ['128.0.0.1', false],
    ['localhost.evil.example', false],
    ['::ffff:10.0.0.1', false],
  ])('%s → %s', (host, loopback) => expect(isLoopbackHost(host)).toBe(loopback));
});

describe('resolveBindAddress', () => {
  it('defaults to 127.0.0.1:9820', () => {
    expect(resolveBindAddress(defaultConfig(), {}, 'en')).toEqual({ host: '127.0.0.1', port: 9820, loopback: true });
  });

  it('lets tests pick port 0 and a loopback host', () => {
    expect(resolveBindAddress(defaultConfig(), { host: 'localhost', port: 0 }, 'en')).toEqual({
      host: 'localhost',
      port: 0,
      loopback: true,
    });
  });

  it('needs web.host AND web.token for a non-loopback bind', () => {
    const c = defaultConfig();
    expect(() => resolveBindAddress(c, { host: '192.168.1.5' }, 'en')).toThrow(/web\.host and web\.token/);
    c.web.token = 'explicit-token-value-123';
    expect(() => resolveBindAddress(c, { host: '192.168.1.5' }, 'en')).toThrow(
      expect.objectContaining({ code: 'WEB_BIND_REFUSED' }),
    );
    c.web.token = '';
    c.web.host = '192.168.1.5';
    expect(() => resolveBindAddress(c, {}, 'zh')).toThrow(/web\.host 和 web\.token/);
    c.web.token = 'explicit-token-value-123';
    expect(resolveBindAddress(c, {}, 'en')).toEqual({ host: '192.168.1.5', port: 9820, loopback: false });
    // An override that differs from the configured host is not "explicit".
    expect(() => resolveBindAddress(c, { host: '0.0.0.0' }, 'en')).toThrow(
      expect.objectContaining({ code: 'WEB_BIND_REFUSED' }),
    );
  });

  it('formats IPv6 hosts with brackets', () => {
    expect(hostPort('::1', 9820)).toBe('[::1]:9820');
    expect(hostPort('127.0.0.1', 1)).toBe('127.0.0.1:1');
  });
});
