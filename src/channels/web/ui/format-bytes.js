// A byte count as people read it, the same rule as the server's (src/core/format-bytes.ts):
// `512 B`, `1.5 MB`, `10 MB`, `320 KB` — one decimal below 100, none from there on, no `.0`.
const UNITS = ['KB', 'MB', 'GB', 'TB'];

export function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = value >= 100 ? String(Math.round(value)) : String(Math.round(value * 10) / 10);
  return `${shown} ${UNITS[unit]}`;
}
