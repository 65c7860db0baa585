import { latin1 } from './buffer-text.js';
import type { LineProbe } from './probe-line.js';
import { DEFAULT_CHUNK } from './read-jsonl-lines.js';
import { LINE_PROBE_WASM } from './wasm-line-probe-module.js';

/** Kinds as `probe` returns them (assembly/line-probe.ts); 4 (null) means "ask the JavaScript probe". */
const KINDS: readonly (LineProbe['kind'] | null)[] = ['invalid', 'parse', 'skip', 'assistant', null, 'human'];
const SKIP = 2;
/** `probeCode` for a `skip` line with nothing left to do (not a code of the module's). */
export const QUIET = 6;

/** The part of the WebAssembly API used here (the project's `lib` has no DOM types). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}

interface Exports {
  memory: { buffer: ArrayBuffer };
  reserve(size: number): number;
  results(): number;
  probe(start: number, end: number): number;
  beginFile(): void;
  newest(): number;
}

let plainBuffer: Buffer | undefined;

/**
 * The read buffer of the synchronous scans (`scanJsonlFile`, `searchContent`): the WebAssembly
 * probe's, so the lines read into it are probed there, or — where WebAssembly is unavailable — one
 * plain buffer of the same size. One per process: borrow it only for a synchronous pass over one
 * file (nothing else can run in between).
 */
export function scanReadBuffer(): Buffer {
  return WasmLineProbe.shared()?.buffer ?? (plainBuffer ??= Buffer.allocUnsafe(DEFAULT_CHUNK));
}

/**
 * The scanner's line probe compiled to WebAssembly (assembly/line-probe.ts), with the read buffer
 * it probes inside its memory. Why: `init` probes every line of every session, and JavaScript
 * byte loops run interpreted until V8 has seen a few hundred files; this runs compiled from the
 * first line (a 2,000-session scan takes ~60 ms less on a cold start). It answers exactly what
 * the JavaScript `probeInto` answers, or declines a line whose values need decoding.
 *
 * One instance per process (`shared`), whose `buffer` a synchronous reader borrows for the length
 * of one file (`scanJsonlFile`); `probeInto` in probe-line.ts uses it for lines in that buffer.
 * Where WebAssembly is unavailable (`node --jitless`, a CPU without SIMD) `shared` is null and
 * the JavaScript probe does all the work.
 *
 * @example
 *   const wasm = WasmLineProbe.shared();
 *   if (wasm && buf === wasm.buffer && wasm.probeInto(out, start, end)) use(out);
 */
export class WasmLineProbe {
  /** A read buffer of `DEFAULT_CHUNK` bytes inside the module's memory (which never grows). */
  readonly buffer: Buffer;
  private readonly probe: (start: number, end: number) => number;
  private readonly results: Int32Array;
  private readonly exports: Exports;
  /** All of the module's memory (it does not grow after `reserve`), for reading results without a view per call. */
  private readonly memory: Buffer;

  private constructor(exports: Exports) {
    const start = exports.reserve(DEFAULT_CHUNK);
    const memory = exports.memory.buffer;
    this.buffer = Buffer.from(memory, start, DEFAULT_CHUNK);
    this.memory = Buffer.from(memory);
    this.results = new Int32Array(memory, exports.results(), 12);
    this.probe = exports.probe;
    this.exports = exports;
  }

  private static instance: WasmLineProbe | null | undefined;

  /** The process's instance, made on first use; null when WebAssembly cannot run it here. */
  static shared(): WasmLineProbe | null {
    if (WasmLineProbe.instance === undefined) WasmLineProbe.instance = WasmLineProbe.load();
    return WasmLineProbe.instance;
  }

  /** The instance if `shared` has made one (never makes it). */
  static loaded(): WasmLineProbe | null {
    return WasmLineProbe.instance ?? null;
  }

  private static load(): WasmLineProbe | null {
    const api = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
    try {
      if (!api) return null;
      const module = new api.Module(Buffer.from(LINE_PROBE_WASM, 'base64'));
      return new WasmLineProbe(new api.Instance(module, {}).exports as Exports);
    } catch {
      return null; // no WebAssembly (--jitless) or no SIMD: the JavaScript probe takes every line
    }
  }

  /**
   * Starts a file: the module keeps the newest canonical timestamp of the lines it probes (the
   * per-line comparison, compiled) until `newest` is asked for; a line whose timestamp it took has
   * `tsInNewest` set. Call before the first line of each file.
   */
  beginFile(): void {
    this.exports.beginFile();
  }

  /** The newest timestamp the module took since `beginFile`, or null. */
  newest(): string | null {
    const at = this.exports.newest();
    return at === 0 ? null : latin1(this.memory, at, at + 24);
  }

  /**
   * Probes `buffer[start, end)` and gives the module's kind code: `QUIET` for a line with nothing
   * left to do in JavaScript once its file's cwd and first time are known (a `skip` line whose
   * timestamp, if any, the module took into the newest); otherwise what `fill` turns into a
   * `LineProbe`. The summary's per-line fast path: two thirds of all lines are quiet.
   */
  probeCode(start: number, end: number): number {
    const kind = this.probe(start, end);
    return kind === SKIP && (this.results[8] !== 0 || (this.results[0] as number) < 0) ? QUIET : kind;
  }

  /**
   * Copies the last probe's results (`probeCode` gave `code`) into `out` as `probeInto` would;
   * false (`out` untouched) when the line holds a value that needs decoding and the JavaScript
   * probe must take it.
   */
  fill(out: LineProbe, code: number): boolean {
    const kind = code === QUIET ? 'skip' : KINDS[code];
    if (!kind) return false;
    // The module's result slots (R_* in assembly/line-probe.ts): timestamp, message id and model
    // ranges, the sidechain and may-have-text flags, whether the timestamp went into the newest,
    // then a prompt's text range and whether it holds escapes.
    const r = this.results;
    out.kind = kind;
    out.timestamp = null;
    out.tsStart = r[0] as number;
    out.tsEnd = r[1] as number;
    out.tsInNewest = r[8] !== 0;
    if (out.kind === 'human') {
      out.sidechain = r[6] !== 0;
      out.textStart = r[9] as number;
      out.textEnd = r[10] as number;
      out.textEscaped = r[11] !== 0;
    } else if (out.kind === 'assistant') {
      out.idStart = r[2] as number;
      out.idEnd = r[3] as number;
      out.modelStart = r[4] as number;
      out.modelEnd = r[5] as number;
      out.model = null;
      out.sidechain = r[6] !== 0;
      out.mayHaveText = r[7] !== 0;
      out.textStart = r[9] as number;
      out.textEnd = r[10] as number;
      out.textEscaped = r[11] !== 0;
    }
    return true;
  }

  /** `probeCode` + `fill`. */
  probeInto(out: LineProbe, start: number, end: number): boolean {
    return this.fill(out, this.probeCode(start, end));
  }
}
