const UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/**
 * A byte count as a user reads it, in binary units: `512 B`, `1.5 MB`, `10 MB`, `320 KB`
 * (one decimal below 100, none from there on, no `.0`). `fixed` always keeps one decimal
 * (`4.0 MB`), so a redrawn progress line keeps its width.
 *
 * @example formatBytes(30 * 1024 * 1024) // '30 MB'
 * @example formatBytes(4 * 1024 * 1024, { fixed: true }) // '4.0 MB'
 */
export function formatBytes(n: number, opts: { fixed?: boolean } = {}): string {
  if (n < 1024) return `${n} B`;
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (opts.fixed) return `${value.toFixed(1)} ${UNITS[unit]}`;
  const shown = value >= 100 ? String(Math.round(value)) : String(Math.round(value * 10) / 10);
  return `${shown} ${UNITS[unit]}`;
}
