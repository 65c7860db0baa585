import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfiguredExecutable, searchPath } from '../process/find-executable.js';
import { bundledClaudeBinary, claudeProgramFor, findClaudeBinary } from './find-claude-binary.js';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-bin-')));
  fs.mkdirSync(path.join(dir, 'bin'));
  fs.writeFileSync(path.join(dir, 'bin', 'claude'), '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'bin', 'not-exec'), '', { mode: 0o644 });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('find-claude-binary', () => {
  it('config first (~ expanded), then PATH, then the SDK bundle', () => {
    expect(findClaudeBinary('~/bin/claude', { PATH: '' }, dir)).toEqual({
      path: path.join(dir, 'bin', 'claude'),
      source: 'config',
    });
    expect(findClaudeBinary('~/missing', { PATH: '' }, dir)).toEqual({
      path: path.join(dir, 'missing'),
      source: 'config',
    });
    expect(findClaudeBinary('', { PATH: `/nonexistent:${path.join(dir, 'bin')}` }, dir)).toEqual({
      path: path.join(dir, 'bin', 'claude'),
      source: 'path',
    });
    const bundled = bundledClaudeBinary();
    expect(findClaudeBinary('', { PATH: '/nonexistent' }, dir)).toEqual(
      bundled ? { path: bundled, source: 'sdk' } : null,
    );
  });

  it('bare names are searched on PATH; non-executables are not found', () => {
    expect(resolveConfiguredExecutable('claude', { PATH: path.join(dir, 'bin') }, dir)).toBe(
      path.join(dir, 'bin', 'claude'),
    );
    expect(resolveConfiguredExecutable('not-exec', { PATH: path.join(dir, 'bin') }, dir)).toBeNull();
    expect(searchPath('claude', undefined)).toBeNull();
  });

  it('the program a pasted command names: `claude` on PATH, else the configured or bundled path', () => {
    expect(claudeProgramFor('', { PATH: path.join(dir, 'bin') }, dir)).toBe('claude');
    expect(claudeProgramFor('~/bin/claude', { PATH: path.join(dir, 'bin') }, dir)).toBe(
      path.join(dir, 'bin', 'claude'),
    );
    const bundled = bundledClaudeBinary();
    expect(claudeProgramFor('', { PATH: '/nonexistent' }, dir)).toBe(bundled ?? 'claude');
    if (bundled) expect(path.isAbsolute(claudeProgramFor('', { PATH: '/nonexistent' }, dir))).toBe(true);
  });

  it.skipIf(process.platform !== 'linux' || process.arch !== 'x64')('resolves the bundled linux-x64 binary', () => {
    expect(bundledClaudeBinary()).toMatch(/claude-agent-sdk-linux-x64(-musl)?\/claude$/);
  });
});
