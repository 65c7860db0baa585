import type { BenchFigure, BenchResults, BenchRun } from './report.js';

/** The markers around the generated part of README.md; nothing outside them is ever touched. */
export const BENCH_START = '<!-- bench:start -->';
export const BENCH_END = '<!-- bench:end -->';
const HEADING = '## Performance';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
const stamp = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

function valueCell(f: BenchFigure): string {
  const v = f.value === null ? 'n/a' : `${f.value}${f.unit === '×' ? '×' : f.unit ? ` ${f.unit}` : ''}`;
  return cell(f.note ? `${v}<br><sub>${f.note}</sub>` : v);
}

const metCell = (met: boolean | null) => (met === true ? '✅' : met === false ? '❌' : '—');

function rows(run: BenchRun): string[] {
  const name = `**${run.name}**${run.quick ? ' (quick)' : ''}`;
  if (run.status === 'skipped') return [`| ${name} · skipped: ${cell(run.reason ?? '')} | — | — | — | — |`];
  const out = run.figures.map(
    (f) =>
      `| ${name} · ${cell(f.figure)} | ${valueCell(f)} | ${cell(f.goal ?? '—')} | ${cell(f.baseline ?? '—')} | ${metCell(f.met)} |`,
  );
  if (run.status !== 'ok')
    out.push(
      `| ${name} · ${run.status === 'timeout' ? 'timed out' : 'failed'}: ${cell(run.reason ?? '')} | — | — | — | ❌ |`,
    );
  else if (out.length === 0) out.push(`| ${name} · printed no figures | — | — | — | — |`);
  return out;
}

/** The generated markdown (caption, table, notes) that goes between the markers. */
export function renderSection(results: BenchResults): string {
  const m = results.machine;
  const older = results.benches.filter((b) => b.status !== 'skipped' && b.measuredAt < results.measuredAt);
  const lines = [
    `_Measured ${stamp(results.measuredAt)} by \`npm run bench\` on ${m.platform}, ${m.cores} cores (${m.cpu}), ${m.memoryGb} GB RAM, Node ${m.node}; load average ${m.loadAverage.join(' / ')} at the start._`,
    `_The machine is shared and has only ${m.cores} cores, so absolute times are noisy from run to run; the ratios against a baseline measured in the same run are the steadier numbers. Each bench's own load average is in \`bench/results/latest.json\`._`,
    '',
    '| figure | value | goal | measured against (same run) | met |',
    '|---|---|---|---|---|',
    ...results.benches.flatMap(rows),
  ];
  if (older.length > 0)
    lines.push('', `_From an earlier run: ${older.map((b) => `${b.name} (${stamp(b.measuredAt)})`).join(', ')}._`);
  return lines.join('\n');
}

/**
 * `readme` with the text between the markers replaced by `section`. Markers missing: they are
 * added under a `## Performance` heading (created at the end when there is none). A README that
 * does not exist yet (null) becomes just that heading and section.
 */
export function spliceReadme(readme: string | null, section: string): string {
  const block = `${BENCH_START}\n${section}\n${BENCH_END}`;
  if (readme === null) return `${HEADING}\n\n${block}\n`;
  const start = readme.indexOf(BENCH_START);
  const end = readme.indexOf(BENCH_END, start);
  if (start >= 0 && end > start) return readme.slice(0, start) + block + readme.slice(end + BENCH_END.length);
  const heading = new RegExp(`^${HEADING}[ \\t]*$`, 'm').exec(readme);
  if (heading) {
    const at = heading.index + heading[0].length;
    return `${readme.slice(0, at)}\n\n${block}\n${readme.slice(at)}`;
  }
  return `${readme.replace(/\n*$/, '\n')}\n${HEADING}\n\n${block}\n`;
}
