// The tiny protocol between the benchmarks and `bench/run-all.ts`, plus the statistics every new
// bench shares. A bench keeps printing its human markdown table and ALSO prints one line per figure:
//   BENCH {"figure":"…","value":12.3,"unit":"ms","goal":"≤ 30 ms","baseline":"…","met":true}
// run-all collects those lines from the child's stdout; nothing else on stdout is parsed.
import os from 'node:os';

/** One measured figure as run-all collects it. `value` null = could not be measured (say why in `note`). */
export interface BenchFigure {
  figure: string;
  value: number | null;
  unit: string;
  /** Human goal, e.g. `≤ 100 ms`; null when the figure is reported without a goal. */
  goal: string | null;
  /** What the figure was measured against in the same run (and that baseline's own value); null if absolute. */
  baseline: string | null;
  /** Goal met? null when there is no goal or no value. */
  met: boolean | null;
  /** Context a reader needs (sample size, p99, the ratio to the baseline, …). */
  note?: string;
}

/** The line prefix run-all looks for. */
export const BENCH_LINE_PREFIX = 'BENCH ';

/** Prints one figure in the protocol (stdout, one line). */
export function emitFigure(f: BenchFigure): void {
  process.stdout.write(`${BENCH_LINE_PREFIX}${JSON.stringify(f)}\n`);
}

/** `met` for an upper-bound goal: null when the value is missing. */
export function atMost(value: number | null, limit: number): boolean | null {
  return value === null || !Number.isFinite(value) ? null : value <= limit;
}

/** The figures in a bench's stdout (malformed BENCH lines are skipped, not fatal). */
export function parseBenchLines(stdout: string): BenchFigure[] {
  const out: BenchFigure[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith(BENCH_LINE_PREFIX)) continue;
    try {
      const f = JSON.parse(line.slice(BENCH_LINE_PREFIX.length)) as Partial<BenchFigure>;
      if (typeof f.figure !== 'string') continue;
      out.push({
        figure: f.figure,
        value: typeof f.value === 'number' ? f.value : null,
        unit: typeof f.unit === 'string' ? f.unit : '',
        goal: typeof f.goal === 'string' ? f.goal : null,
        baseline: typeof f.baseline === 'string' ? f.baseline : null,
        met: typeof f.met === 'boolean' ? f.met : null,
        ...(typeof f.note === 'string' ? { note: f.note } : {}),
      });
    } catch {
      /* a torn line: ignore */
    }
  }
  return out;
}

/** `--quick` (or CC_LINKER_BENCH_QUICK=1, which run-all sets): smaller sizes for a fast check. */
export function isQuick(): boolean {
  return process.argv.includes('--quick') || process.env.CC_LINKER_BENCH_QUICK === '1';
}

/** The p-th percentile (0–100) by nearest rank; NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

/** A number rounded for a report: 2 decimals below 10 (ratios), 1 below 100, whole above. */
export function round(n: number): number {
  const a = Math.abs(n);
  const f = a >= 100 ? 1 : a >= 10 ? 10 : 100;
  return Math.round(n * f) / f;
}

/** The machine a run happened on, for the report's caption (figures are noisy on shared small machines). */
export function machineInfo(): {
  cores: number;
  cpu: string;
  loadAverage: number[];
  node: string;
  platform: string;
  memoryGb: number;
} {
  return {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
  };
}

/** One bench's outcome in `bench/results/latest.json`. */
export interface BenchRun {
  /** `bridge` for bench/bridge.bench.ts. */
  name: string;
  status: 'ok' | 'failed' | 'timeout' | 'skipped';
  /** Why it failed or was skipped. */
  reason?: string;
  measuredAt: string;
  durationMs: number;
  quick: boolean;
  /** 1/5/15-minute load average when the bench started. */
  loadAverage: number[];
  /** `protocol` = BENCH lines; `table` = read from its markdown table (bench not yet speaking the protocol). */
  source: 'protocol' | 'table' | 'none';
  figures: BenchFigure[];
  /** The end of its stderr when it failed. */
  stderrTail?: string;
}

/** `bench/results/latest.json`: the last result of every bench (an `--only` run updates its benches only). */
export interface BenchResults {
  measuredAt: string;
  machine: ReturnType<typeof machineInfo>;
  benches: BenchRun[];
}
