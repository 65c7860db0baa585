import OpusScript from 'opusscript';

// Ogg/Opus voice notes for tests, made in the test (no binary fixtures): libopus (opusscript)
// encodes 20 ms frames at 16 kHz and a small Ogg muxer (RFC 3533 pages, RFC 7845 Opus mapping)
// wraps them: OpusHead, OpusTags, one packet per page, granule positions in 48 kHz units plus
// the pre-skip, CRC-32 with polynomial 0x04C11DB7.

const RATE = 16_000;
const FRAME = 320; // 20 ms at 16 kHz
const PRE_SKIP = 312;
const SERIAL = 0x6363_6c6b;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i += 1) {
    let r = i << 24;
    for (let k = 0; k < 8; k += 1) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** Ogg's CRC-32: polynomial 0x04C11DB7, initial 0, not reflected. */
export function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ b) & 0xff] ?? 0)) >>> 0;
  return crc;
}

/** One Ogg page carrying one whole packet. */
function page(packet: Buffer, o: { seq: number; granule: bigint; flags: number }): Buffer {
  const lacing: number[] = [];
  let left = packet.length;
  while (left >= 255) {
    lacing.push(255);
    left -= 255;
  }
  lacing.push(left);
  const header = Buffer.alloc(27 + lacing.length);
  header.write('OggS', 0, 'latin1');
  header.writeUInt8(0, 4);
  header.writeUInt8(o.flags, 5);
  header.writeBigUInt64LE(o.granule, 6);
  header.writeUInt32LE(SERIAL, 14);
  header.writeUInt32LE(o.seq, 18);
  header.writeUInt32LE(0, 22);
  header.writeUInt8(lacing.length, 26);
  Buffer.from(lacing).copy(header, 27);
  const whole = Buffer.concat([header, packet]);
  whole.writeUInt32LE(oggCrc(whole), 22);
  return whole;
}

function opusHead(): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head.writeUInt8(1, 8); // version
  head.writeUInt8(1, 9); // channels
  head.writeUInt16LE(PRE_SKIP, 10);
  head.writeUInt32LE(RATE, 12); // input sample rate (informative)
  head.writeInt16LE(0, 16); // output gain
  head.writeUInt8(0, 18); // channel mapping family
  return head;
}

function opusTags(): Buffer {
  const vendor = Buffer.from('cc-linker test muxer');
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write('OpusTags', 0, 'latin1');
  tags.writeUInt32LE(vendor.length, 8);
  vendor.copy(tags, 12);
  tags.writeUInt32LE(0, 12 + vendor.length);
  return tags;
}

/** Encodes 16 kHz mono samples (−1…1) as an Ogg/Opus file. */
export function encodeOggOpus(samples: Float32Array): Buffer {
  const encoder = new OpusScript(RATE, 1, OpusScript.Application.VOIP, { wasm: true });
  try {
    const pages = [
      page(opusHead(), { seq: 0, granule: 0n, flags: 0x02 }),
      page(opusTags(), { seq: 1, granule: 0n, flags: 0 }),
    ];
    const frames = Math.ceil(samples.length / FRAME);
    for (let f = 0; f < frames; f += 1) {
      const pcm = Buffer.alloc(FRAME * 2);
      for (let i = 0; i < FRAME; i += 1) {
        const v = Math.max(-1, Math.min(1, samples[f * FRAME + i] ?? 0));
        pcm.writeInt16LE(Math.round(v * 32767), i * 2);
      }
      const packet = Buffer.from(encoder.encode(pcm, FRAME));
      const granule = BigInt(PRE_SKIP + (f + 1) * FRAME * 3);
      pages.push(page(packet, { seq: pages.length, granule, flags: f === frames - 1 ? 0x04 : 0 }));
    }
    return Buffer.concat(pages);
  } finally {
    encoder.delete();
  }
}

/** `seconds` of 16 kHz samples: a sine of `hz` at `amplitude`, or silence when `hz` is 0. */
export function tone(hz: number, seconds: number, amplitude = 0.5): Float32Array {
  const out = new Float32Array(Math.round(seconds * RATE));
  if (hz > 0) for (let i = 0; i < out.length; i += 1) out[i] = amplitude * Math.sin((2 * Math.PI * hz * i) / RATE);
  return out;
}

/** Pieces of 16 kHz audio one after the other. */
export function concat(...parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** An Ogg/Opus voice note of one tone. */
export function toneNote(hz: number, seconds: number, amplitude = 0.5): Buffer {
  return encodeOggOpus(tone(hz, seconds, amplitude));
}
