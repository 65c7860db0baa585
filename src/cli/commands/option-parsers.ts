import { OptionValueError } from './command-spec.js';

/** Option parser for `--limit <n>` style options. */
export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new OptionValueError('expected a positive integer');
  return n;
}
