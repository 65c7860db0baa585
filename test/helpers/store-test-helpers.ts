import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import { StoreError } from '../../src/store/store-error.js';

/** A pid that certainly existed and is now gone (its process exited and was reaped). */
export function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '0']);
  expect(r.status).toBe(0);
  return r.pid as number;
}

/** The `StoreError` `p` rejects with (fails the test when it resolves or rejects with anything else). */
export async function storeRejection(p: Promise<unknown>): Promise<StoreError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(StoreError);
  return e as StoreError;
}
