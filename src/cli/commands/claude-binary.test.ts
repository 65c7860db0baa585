import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/default-config.js';
import { resolvePaths } from '../../core/paths.js';
import { findClaudeBinary } from './claude-binary.js';

describe('findClaudeBinary', () => {
  const paths = resolvePaths({ HOME: os.tmpdir() });
  it('prefers general.claude_bin, then claude on PATH, then the Agent SDK binary', () => {
    const config = defaultConfig();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-bin-'));
    try {
      const onPath = path.join(dir, 'claude');
      fs.writeFileSync(onPath, '#!/bin/sh\n', { mode: 0o755 });
      expect(findClaudeBinary({ config: { ...config, general: { ...config.general, claude_bin: '/opt/x/claude' } }, env: { PATH: dir }, paths })).toEqual({ path: '/opt/x/claude', source: 'config' });
      expect(findClaudeBinary({ config, env: { PATH: dir }, paths })).toEqual({ path: onPath, source: 'path' });
      const sdk = findClaudeBinary({ config, env: { PATH: '' }, paths });
      expect(sdk?.source).toBe('sdk');
      expect(sdk?.path.endsWith(path.join('claude-agent-sdk-linux-x64', 'claude'))).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
