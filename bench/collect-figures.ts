import { parseBenchLines, type BenchFigure } from './report.js';

/** Milliseconds per unit, for comparing a value with a goal written in another time unit. */
const TIME_UNITS: Record<string, number> = { ms: 1, s: 1000 };

function normUnit(unit: string): string {
  return unit === 'x' ? '×' : unit;
}

/** `met` for a goal written as `≤ N unit` against `value unit`; null when it cannot be read. */
export function judgeGoal(value: number | null, unit: string, goal: string | null): boolean | null {
  if (value === null || goal === null) return null;
  const m = /^\s*(?:p\d+\s*)?≤\s*([\d.]+)\s*(ms|s|MB|x|×)?/.exec(goal);
  if (!m) return null;
  const limit = Number(m[1]);
  const goalUnit = normUnit(m[2] ?? unit);
  const u = normUnit(unit);
  if (goalUnit === u) return value <= limit;
  const a = TIME_UNITS[u];
  const b = TIME_UNITS[goalUnit];
  return a !== undefined && b !== undefined ? value * a <= limit * b : null;
}

function cells(line: string): string[] {
  // Split on unescaped pipes; drop the empty first/last cells of `| a | b |`.
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

/**
 * The figures of a bench that prints only a markdown table `| figure | value | goal | baseline |`
 * (a bench not yet speaking the BENCH protocol): the value's leading number and unit become
 * `value`/`unit`, the rest of the cell the note, and `met` is read from a `≤ N unit` goal.
 */
export function parseMarkdownTable(stdout: string): BenchFigure[] {
  const out: BenchFigure[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.trimStart().startsWith('|')) continue;
    const c = cells(line);
    if (c.length < 4 || /^-+$/.test(c[0]?.replace(/:/g, '') ?? '') || c[0]?.toLowerCase() === 'figure') continue;
    const [figure = '', raw = '', goalCell = '', baseline = ''] = c;
    const m = /^(-?[\d.]+)\s*([^\s(;,:]*)\s*(.*)$/.exec(raw);
    const value = m && Number.isFinite(Number(m[1])) ? Number(m[1]) : null;
    const unit = value === null ? '' : (m?.[2] ?? '');
    const tail = value === null ? raw : (m?.[3] ?? '');
    // Judge only "N unit" or "N unit (details)": in "127 ms vs bare 110 ms: overhead 17 ms" the
    // leading number is not the figure the goal is about.
    const plain = tail === '' || tail.startsWith('(');
    const rest = tail.replace(/^\((.*)\)$/, '$1').trim();
    const goal = goalCell === '' || goalCell === '-' || goalCell === 'report' ? null : goalCell;
    out.push({
      figure,
      value,
      unit: normUnit(unit),
      goal,
      baseline: baseline === '' || baseline === '-' ? null : baseline,
      met: plain ? judgeGoal(value, unit, goal) : null,
      ...(rest ? { note: rest } : {}),
    });
  }
  return out;
}

/** A bench's figures: its BENCH lines, else (older benches) its markdown table. */
export function collectFigures(stdout: string): { figures: BenchFigure[]; source: 'protocol' | 'table' | 'none' } {
  const lines = parseBenchLines(stdout);
  if (lines.length > 0) return { figures: lines, source: 'protocol' };
  const table = parseMarkdownTable(stdout);
  return table.length > 0 ? { figures: table, source: 'table' } : { figures: [], source: 'none' };
}
