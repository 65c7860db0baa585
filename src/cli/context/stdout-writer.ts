import fs from 'node:fs';

/** What `stdoutWriter` needs of the platform (a test stands in for the kernel and the stream). */
export interface StdoutDeps {
  fd: number;
  writeSync: (fd: number, bytes: Uint8Array, offset: number) => number;
  stream: () => { write(chunk: string | Uint8Array): unknown };
}

const REAL: StdoutDeps = {
  fd: 1,
  writeSync: (fd, bytes, offset) => fs.writeSync(fd, bytes, offset),
  stream: () => process.stdout,
};

/**
 * A writer for the command's results. When stdout is a regular file or (off Windows) a character
 * device — a terminal, /dev/null — text goes straight to fd 1 with `fs.writeSync`: making
 * `process.stdout` costs ≈ 2–3 ms of a start (the stream machinery, and for a terminal `tty` and
 * `net`), more than a cold `list` spends on its own work. A pipe or a socket still goes through
 * `process.stdout`, which copes with a non-blocking pipe; so does whatever the kernel refuses with
 * EAGAIN after part of a text went out directly (the rest follows, in order). On Windows a console
 * is left to `process.stdout`, which writes Unicode to it properly.
 */
export function stdoutWriter(deps: StdoutDeps = REAL): (text: string) => void {
  let direct: boolean | null = null;
  let fallback = false;
  return (text) => {
    if (direct === null) direct = canWriteDirectly(deps.fd);
    if (!direct || fallback) {
      deps.stream().write(text);
      return;
    }
    const bytes = Buffer.from(text, 'utf8');
    let offset = 0;
    try {
      while (offset < bytes.length) offset += deps.writeSync(deps.fd, bytes, offset);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
      fallback = true; // from now on through the stream, so that nothing overtakes what it holds
      deps.stream().write(bytes.subarray(offset));
    }
  };
}

function canWriteDirectly(fd: number): boolean {
  try {
    const st = fs.fstatSync(fd);
    return st.isFile() || (st.isCharacterDevice() && process.platform !== 'win32');
  } catch {
    return false;
  }
}
