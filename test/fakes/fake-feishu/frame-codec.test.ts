import { describe, expect, it } from 'vitest';
import { decodeFrame, encodeFrame, frameHeader, FrameMethod, type Frame } from './frame-codec.js';

describe('frame-codec', () => {
  it('round-trips a data frame with headers, payload and a SeqID above 2^32', () => {
    const frame: Frame = {
      SeqID: 2 ** 40 + 7,
      LogID: 3,
      service: 33554678,
      method: FrameMethod.data,
      headers: [
        { key: 'type', value: 'event' },
        { key: 'sum', value: '2' },
      ],
      payload: Buffer.from('{"code":200}'),
    };
    const decoded = decodeFrame(encodeFrame(frame));
    expect(decoded).toMatchObject({
      SeqID: 2 ** 40 + 7,
      LogID: 3,
      service: 33554678,
      method: 1,
      headers: frame.headers,
    });
    expect(Buffer.from(decoded.payload ?? []).toString()).toBe('{"code":200}');
    expect(frameHeader(decoded, 'sum')).toBe('2');
    expect(frameHeader(decoded, 'seq')).toBeUndefined();
  });

  it('encodes the field numbers the SDK expects (SeqID=1 varint … headers=5)', () => {
    const bytes = encodeFrame({ SeqID: 1, LogID: 2, service: 3, method: 0, headers: [{ key: 'type', value: 'ping' }] });
    // 08 01 | 10 02 | 18 03 | 20 00 | 2a 0c (0a 04 "type" 12 04 "ping")
    expect(Buffer.from(bytes).toString('hex')).toBe('08011002180320002a0c0a0474797065120470696e67');
  });

  it('throws on bytes that are not a frame', () => {
    expect(() => decodeFrame(Uint8Array.from([0x0a, 0xff]))).toThrow();
  });
});
