import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../core/default-config.js';
import { silentLogger } from '../core/logger.js';
import { resolvePaths } from '../core/paths.js';
import { createEngine, selectEngineMode } from './create-engine.js';

describe('selectEngineMode / createEngine', () => {
  it('auto: sdk when sdk.enabled, else stream-json when stream.enabled, else json; explicit modes win', () => {
    const c = defaultConfig();
    expect(selectEngineMode(c)).toBe('sdk');
    c.sdk.enabled = false;
    expect(selectEngineMode(c)).toBe('stream-json');
    c.stream.enabled = false;
    expect(selectEngineMode(c)).toBe('json');
    c.claude.mode = 'stream-json';
    expect(selectEngineMode(c)).toBe('stream-json');
  });

  it('returns an engine of the selected mode', () => {
    const paths = resolvePaths({ HOME: '/nonexistent-home' });
    for (const mode of ['sdk', 'stream-json', 'json'] as const) {
      const c = defaultConfig();
      c.claude.mode = mode;
      expect(createEngine(c, { paths, logger: silentLogger, lang: 'zh' }).mode).toBe(mode);
    }
  });
});
