// Compressed audio clips for tests, as Slack sends its audio clips: the container's real magic
// bytes (what `sniffAudio` and the fake transcription endpoint check) followed by filler. Nothing
// here decodes them: a clip is sent whole, and the fake endpoint answers by its size.

/** A WebM clip of `size` bytes (EBML header magic `1A 45 DF A3`, then a `webm` DocType). */
export function webmClip(size = 600): Buffer {
  const head = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84, ...Buffer.from('webm')]);
  return Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length), 0x5a)]).subarray(0, size);
}

/** An MP4/M4A clip of `size` bytes (an `ftyp` box with brand `M4A `). */
export function mp4Clip(size = 600): Buffer {
  const head = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypM4A \0\0\0\0isomM4A ')]);
  return Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length), 0x33)]).subarray(0, size);
}
