import { describe, expect, it } from 'vitest';
import { AppError } from '../core/app-error.js';
import { StoreError } from './store-error.js';

describe('StoreError', () => {
  it('is an AppError with a one-line zh message, sysexits-style exit code and kept params', () => {
    const e = new StoreError('STORE_CORRUPT', { file: '/x/registry.json', reason: 'truncated JSON' });
    expect(e).toBeInstanceOf(AppError);
    expect(e.code).toBe('STORE_CORRUPT');
    expect(e.userMessage).toContain('/x/registry.json');
    expect(e.userMessage).not.toContain('\n');
    expect(e.exitCode).toBe(65);
    expect(e.params.file).toBe('/x/registry.json');
  });

  it('renders the same error in English', () => {
    const e = new StoreError('STORE_OWNER_LOCKED', { action: 'cc-linker sync', pid: 4242 });
    expect(e.userMessage).toContain('4242');
    expect(e.userMessage).toContain('cc-linker stop');
    const en = e.localize('en');
    expect(en).toMatch(/^Cannot run cc-linker sync: cc-linker start is running \(pid 4242\)/);
    expect(en).not.toContain('host');
    expect(new StoreError('STORE_OWNER_LOCKED', { action: 'x', pid: 1, host: 'other' }).localize('en')).toContain(
      'on host other',
    );
  });

  it('io() names the operation, the file and the errno, and passes StoreErrors through', () => {
    const cause = Object.assign(new Error('no space left on device, write'), { code: 'ENOSPC' });
    const e = StoreError.io('write', '/x/a.json', cause);
    expect(e.code).toBe('STORE_IO');
    expect(e.cause).toBe(cause);
    expect(e.userMessage).toBe('无法写入文件 /x/a.json：ENOSPC');
    expect(e.localize('en')).toBe('Cannot write the file /x/a.json: ENOSPC');
    expect(StoreError.io('read', '/y', e)).toBe(e);
  });
});
