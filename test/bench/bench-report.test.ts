import { describe, expect, it } from 'vitest';
import { collectFigures, judgeGoal, parseMarkdownTable } from '../../bench/collect-figures.js';
import { BENCH_END, BENCH_START, renderSection, spliceReadme } from '../../bench/readme-section.js';
import { parseBenchLines, percentile, type BenchResults } from '../../bench/report.js';

const results = (over: Partial<BenchResults> = {}): BenchResults => ({
  measuredAt: '2026-11-30T10:00:00.000Z',
  machine: {
    cores: 2,
    cpu: 'Test CPU',
    loadAverage: [6.4, 7.6, 6.7],
    node: 'v20.20.2',
    platform: 'linux 6.1',
    memoryGb: 8,
  },
  benches: [
    {
      name: 'bridge',
      status: 'ok',
      measuredAt: '2026-11-30T10:00:01.000Z',
      durationMs: 1000,
      quick: false,
      loadAverage: [6, 6, 6],
      source: 'protocol',
      figures: [
        {
          figure: 'accept() p99 | sequential',
          value: 32.1,
          unit: 'ms',
          goal: '≤ 100 ms',
          baseline: 'bare write p50 0.9 ms',
          met: true,
          note: 'n=1000',
        },
      ],
    },
    {
      name: 'ccexec',
      status: 'skipped',
      reason: 'bench/ccexec.bench.ts not present',
      measuredAt: '2026-11-30T10:00:02.000Z',
      durationMs: 0,
      quick: false,
      loadAverage: [6, 6, 6],
      source: 'none',
      figures: [],
    },
  ],
  ...over,
});

describe('BENCH protocol', () => {
  it('reads BENCH lines and ignores everything else, including torn lines', () => {
    const out = [
      '| figure | value |',
      'BENCH {"figure":"a","value":1.5,"unit":"ms","goal":"≤ 2 ms","baseline":null,"met":true}',
      'BENCH {"figure":',
      'noise',
    ].join('\n');
    expect(parseBenchLines(out)).toEqual([
      { figure: 'a', value: 1.5, unit: 'ms', goal: '≤ 2 ms', baseline: null, met: true },
    ]);
  });

  it('falls back to the markdown table of a bench that prints no BENCH lines, judging ≤ goals across ms and s', () => {
    const out = [
      '| figure | value | goal | baseline |',
      '|---|---|---|---|',
      '| json overhead p50 | 12.5 ms (paired 11 ms) | ≤ 30 ms | bare claude p50 900 ms |',
      '| cancel p50 | 2600 ms (max 2700 ms) | ≤ 2.5 s | grace 2000 ms |',
      '| sdk overhead | 40 ms | report | bare sdk |',
      '| exec overhead p50 | 127.5 ms vs bare 110.3 ms: overhead 17.2 ms | ≤ 10 ms | bare spawn |',
      '| gate cost | 2.40 µs/call = 416,358 ops/s | negligible | JSON.parse |',
    ].join('\n');
    const { figures, source } = collectFigures(out);
    expect(source).toBe('table');
    expect(figures.map((f) => [f.value, f.unit, f.met])).toEqual([
      [12.5, 'ms', true],
      [2600, 'ms', false],
      [40, 'ms', null],
      [127.5, 'ms', null],
      [2.4, 'µs/call', null],
    ]);
    expect(figures[3]?.note).toBe('vs bare 110.3 ms: overhead 17.2 ms');
    expect(figures[0]?.note).toBe('paired 11 ms');
    expect(parseMarkdownTable('no table here')).toEqual([]);
  });

  it('judges ratio goals and refuses to guess across unrelated units', () => {
    expect(judgeGoal(1.9, '×', '≤ 2.0×')).toBe(true);
    expect(judgeGoal(2.1, 'x', '≤ 2.0x')).toBe(false);
    expect(judgeGoal(90, 'MB', '≤ 2.5 s')).toBeNull();
    expect(judgeGoal(null, 'ms', '≤ 1 ms')).toBeNull();
  });

  it('takes percentiles by nearest rank', () => {
    const v = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(v, 50)).toBe(50);
    expect(percentile(v, 99)).toBe(99);
    expect(Number.isNaN(percentile([], 50))).toBe(true);
  });
});

describe('README performance section', () => {
  const section = renderSection(results());

  it('renders one row per figure with escaped pipes, met marks, skipped benches and the machine caption', () => {
    expect(section).toContain('2 cores (Test CPU)');
    expect(section).toContain('load average 6.4 / 7.6 / 6.7');
    expect(section).toContain('noisy');
    expect(section).toContain(
      '| **bridge** · accept() p99 \\| sequential | 32.1 ms<br><sub>n=1000</sub> | ≤ 100 ms | bare write p50 0.9 ms | ✅ |',
    );
    expect(section).toContain('| **ccexec** · skipped: bench/ccexec.bench.ts not present | — | — | — | — |');
  });

  it('replaces only the text between the markers', () => {
    const readme = `# cc-linker\n\nintro\n\n## Performance\n\nhand-written words\n\n${BENCH_START}\nold table\n${BENCH_END}\n\n## License\nMIT\n`;
    const next = spliceReadme(readme, 'NEW');
    expect(next).toBe(
      `# cc-linker\n\nintro\n\n## Performance\n\nhand-written words\n\n${BENCH_START}\nNEW\n${BENCH_END}\n\n## License\nMIT\n`,
    );
    expect(spliceReadme(next, 'NEWER')).toContain(`${BENCH_START}\nNEWER\n${BENCH_END}\n\n## License`);
  });

  it('adds the markers under an existing Performance heading, else a new heading at the end, else a new file', () => {
    expect(spliceReadme('# x\n\n## Performance\n\n## Next\n', 'T')).toBe(
      `# x\n\n## Performance\n\n${BENCH_START}\nT\n${BENCH_END}\n\n\n## Next\n`,
    );
    expect(spliceReadme('# x\ntext', 'T')).toBe(`# x\ntext\n\n## Performance\n\n${BENCH_START}\nT\n${BENCH_END}\n`);
    expect(spliceReadme(null, 'T')).toBe(`## Performance\n\n${BENCH_START}\nT\n${BENCH_END}\n`);
  });

  it('names benches whose figures come from an earlier run', () => {
    const r = results();
    const old = {
      ...r.benches[0],
      name: 'runner',
      measuredAt: '2026-11-29T09:00:00.000Z',
    } as BenchResults['benches'][number];
    expect(renderSection({ ...r, benches: [old, ...r.benches] })).toContain(
      'From an earlier run: runner (2026-11-29 09:00 UTC)',
    );
  });
});
