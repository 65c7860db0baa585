#!/usr/bin/env node
// Draws the console's app icons once (two chain links, white on the accent blue) and writes them as
// PNG files to src/channels/web/ui/icons/, which are committed: the build copies them like any UI
// file. Pure Node (zlib), no browser: shapes are signed distances, 4×4 supersampled.
//   node scripts/make-icons.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'src', 'channels', 'web', 'ui', 'icons');

const BLUE = [9, 105, 218];
const WHITE = [255, 255, 255];

/** Distance from (x, y) to the segment a–b. */
function segment(x, y, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const h = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - ax - h * dx, y - ay - h * dy);
}

/** Inside a rounded square spanning [-1, 1] with corner radius r. */
function roundedSquare(x, y, r) {
  const qx = Math.abs(x) - (1 - r);
  const qy = Math.abs(y) - (1 - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r <= 0;
}

/** Inside the glyph (two chain links along the diagonal), in glyph units [-1, 1]. */
function glyph(x, y) {
  const ring = (ax, ay, bx, by) => Math.abs(segment(x, y, ax, ay, bx, by) - 0.3) <= 0.1;
  return ring(-0.55, 0.55, -0.1, 0.1) || ring(0.1, -0.1, 0.55, -0.55);
}

/**
 * One icon's RGBA pixels. `shape`: `rounded` (transparent corners), or `full` (full bleed — the
 * maskable icon and Apple's, which the system crops itself). `glyphScale`: the glyph's share of the side.
 */
function draw(size, shape, glyphScale) {
  const px = Buffer.alloc(size * size * 4);
  const S = 4;
  for (let j = 0; j < size; j++)
    for (let i = 0; i < size; i++) {
      let bg = 0;
      let fg = 0;
      for (let sj = 0; sj < S; sj++)
        for (let si = 0; si < S; si++) {
          const x = ((i + (si + 0.5) / S) / size) * 2 - 1;
          const y = ((j + (sj + 0.5) / S) / size) * 2 - 1;
          if (shape === 'full' || roundedSquare(x, y, 0.44)) {
            bg += 1;
            if (glyph(x / glyphScale, y / glyphScale)) fg += 1;
          }
        }
      const o = (j * size + i) * 4;
      const a = bg / (S * S);
      const f = bg ? fg / bg : 0;
      for (let c = 0; c < 3; c++) px[o + c] = Math.round(BLUE[c] * (1 - f) + WHITE[c] * f);
      px[o + 3] = Math.round(a * 255);
    }
  return px;
}

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** An 8-bit RGBA PNG of `size`×`size` pixels. */
function png(size, px) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let j = 0; j < size; j++) px.copy(raw, j * (size * 4 + 1) + 1, j * size * 4, (j + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

fs.mkdirSync(out, { recursive: true });
// The maskable icon keeps its glyph inside the central 80 % circle every launcher leaves visible.
for (const [name, size, shape, scale] of [
  ['icon-192.png', 192, 'rounded', 0.78],
  ['icon-512.png', 512, 'rounded', 0.78],
  ['icon-maskable-512.png', 512, 'full', 0.6],
  ['apple-touch-icon.png', 180, 'full', 0.7],
]) {
  const file = path.join(out, name);
  fs.writeFileSync(file, png(size, draw(size, shape, scale)));
  console.log(`make-icons: ${path.relative(root, file)} ${size}×${size} ${fs.statSync(file).size} bytes`);
}
