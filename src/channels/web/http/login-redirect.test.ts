import { describe, expect, it } from 'vitest';
import { loginRedirect } from './login-redirect.js';

describe('loginRedirect', () => {
  it.each([
    ['//evil.com?token=T'],
    ['/.//evil.com?token=T'],
    ['/\\evil.com?token=T'],
    ['/\\\\evil.com?token=T'],
    ['/%2F%2Fevil.com?token=T'],
    ['/%2f/evil.com?token=T'],
    ['/%5Cevil.com?token=T'],
    ['/%5C%5Cevil.com?token=T'],
    ['https://evil.com/?token=T'],
    ['http://evil.com/?token=T'],
    ['javascript:alert(1)'],
    ['/..//evil.com?token=T'],
    ['/%2e%2e//evil.com?token=T'],
    ['/a/../..//evil.com?token=T'],
    ['/\r\n//evil.com?token=T'],
    ['/%0d%0aSet-Cookie:x=y?token=T'],
    ['/\t/evil.com?token=T'],
    ['/%09/evil.com?token=T'],
    ['/%zz?token=T'],
    [''],
  ])('%j → /', (target) => {
    expect(loginRedirect(target)).toBe('/');
  });

  it.each([
    ['/?token=T', '/'],
    ['/index.html?token=T', '/index.html'],
    ['/?token=T&view=chat', '/?view=chat'],
    ['/?a=1&token=T&b=2', '/?a=1&b=2'],
    ['/?token=T&token=U', '/'],
    ['/?%74oken=T&keep=1', '/?keep=1'],
    ['/?tokens=1&a=b%20c+d&token=T', '/?tokens=1&a=b%20c+d'],
    ['/assets/../index.html?token=T', '/index.html'],
    ['/./index.html?token=T', '/index.html'],
    ['/%E4%BC%9A%E8%AF%9D?token=T', '/%E4%BC%9A%E8%AF%9D'],
    // Harmless as they are: an escaped CR/LF is data in a query value; the URL parser makes `\` a `/`
    // inside a path and resolves a relative target against this console.
    ['/?token=T&next=%0d%0aX', '/?next=%0d%0aX'],
    ['/a\\b?token=T', '/a/b'],
    ['evil.com?token=T', '/evil.com'],
  ])('%j → %j (only the token parameter is removed)', (target, expected) => {
    expect(loginRedirect(target)).toBe(expected);
  });
});
