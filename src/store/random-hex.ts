/**
 * `length` random lowercase hex digits, for names and tokens that must not collide between
 * processes or calls — temp files, lock tokens, hook event files — but are not secrets: every
 * file so named is created with O_EXCL in a directory of the user's own (a name someone planted
 * makes the create fail, it is never followed), and a lock token is compared, never trusted.
 *
 * Drawn from `Math.random`, which V8 seeds per process from the operating system's entropy, and
 * not from `node:crypto`: loading that module costs ≈ 3 ms of every command's start (`init`,
 * `sync` and the SessionStart hook all write through here), for randomness nothing here needs.
 *
 * @example
 *   `${file}.${process.pid}.${randomHex(8)}.new` // → "registry.lock.4242.9f3a01bc.new"
 */
export function randomHex(length: number): string {
  if (!Number.isInteger(length) || length < 0)
    throw new RangeError(`randomHex: length must be a non-negative integer, got ${length}`);
  let out = '';
  while (out.length < length)
    out += Math.floor(Math.random() * 0x1_0000_0000)
      .toString(16)
      .padStart(8, '0');
  return out.slice(0, length);
}
