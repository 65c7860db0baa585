import { InvalidArgumentError } from 'commander';

/** Commander argument parser for `--limit <n>` style options. */
export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}
