import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { larkDomain, larkSdk } from './lark-sdk.js';

describe('larkSdk', () => {
  it("is the package's CommonJS exports, required once", () => {
    const sdk = larkSdk();
    expect(sdk).toBe(createRequire(import.meta.url)('@larksuiteoapi/node-sdk'));
    expect(larkSdk()).toBe(sdk);
    expect(typeof sdk.WSClient).toBe('function');
  });

  it('maps feishu_bot.domain to the SDK constants or a base URL without trailing slashes', () => {
    expect(larkDomain('feishu')).toBe(larkSdk().Domain.Feishu);
    expect(larkDomain('lark')).toBe(larkSdk().Domain.Lark);
    expect(larkDomain('http://127.0.0.1:8080//')).toBe('http://127.0.0.1:8080');
  });
});
