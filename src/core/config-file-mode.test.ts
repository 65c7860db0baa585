import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configFileExposure } from './config-file-mode.js';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-config-mode-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const write = (name: string, mode: number) => {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, '[general]\n');
  fs.chmodSync(file, mode);
  return file;
};

describe.skipIf(process.platform === 'win32')('configFileExposure', () => {
  it('is null for a private file (0600, 0400) and a missing one', () => {
    expect(configFileExposure(write('a.toml', 0o600))).toBeNull();
    expect(configFileExposure(write('b.toml', 0o400))).toBeNull();
    expect(configFileExposure(path.join(tmp, 'missing.toml'))).toBeNull();
  });

  it('reports any group or other bit, with the mode and the fix in both languages', () => {
    for (const mode of [0o644, 0o640, 0o604, 0o620, 0o666]) {
      const file = write(`c${mode.toString(8)}.toml`, mode);
      const r = configFileExposure(file, '~/c.toml');
      expect(r?.mode).toBe(`0${mode.toString(8)}`);
      expect(r?.text.en).toContain(`~/c.toml has mode 0${mode.toString(8)}`);
      expect(r?.text.en).toContain(`Fix: chmod 600 ${file}`);
      expect(r?.text.zh).toContain(`修复：chmod 600 ${file}`);
    }
  });

  it('follows a symlink to the file it names, and quotes a path the shell would split', () => {
    const dir = path.join(tmp, 'my dir');
    fs.mkdirSync(dir);
    const target = path.join(dir, 'config.toml');
    fs.writeFileSync(target, '');
    fs.chmodSync(target, 0o644);
    const link = path.join(tmp, 'link.toml');
    fs.symlinkSync(target, link);
    expect(configFileExposure(link)?.mode).toBe('0644');
    expect(configFileExposure(target)?.text.en).toContain(`chmod 600 '${target}'`);
    fs.chmodSync(target, 0o600);
    expect(configFileExposure(link)).toBeNull();
  });
});
