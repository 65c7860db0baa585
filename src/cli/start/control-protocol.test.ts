import { describe, expect, it } from 'vitest';
import { isControlRequest, MAX_SEND_FILE_CAPTION, MAX_SEND_FILE_PATH } from './control-protocol.js';

describe('isControlRequest: send_file', () => {
  const token = 'a'.repeat(64);
  it('takes a token, a path and an optional caption', () => {
    expect(isControlRequest({ op: 'send_file', token, path: 'out.png' })).toBe(true);
    expect(isControlRequest({ op: 'send_file', token, path: 'out.png', caption: 'c' })).toBe(true);
    expect(isControlRequest({ op: 'send_file', token: 'short', path: 'x' })).toBe(true); // the registry refuses it
  });
  it('refuses a missing or oversized field', () => {
    const bad = [
      { op: 'send_file', path: 'x' },
      { op: 'send_file', token, path: '' },
      { op: 'send_file', token, path: 7 },
      { op: 'send_file', token: 't'.repeat(129), path: 'x' },
      { op: 'send_file', token, path: 'p'.repeat(MAX_SEND_FILE_PATH + 1) },
      { op: 'send_file', token, path: 'x', caption: 'c'.repeat(MAX_SEND_FILE_CAPTION + 1) },
      { op: 'send_file', token, path: 'x', caption: 5 },
    ];
    for (const r of bad) expect(isControlRequest(r)).toBe(false);
  });
});
