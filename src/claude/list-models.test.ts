import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listModels, resolveModel } from './list-models.js';

let claudeDir: string;
beforeEach(() => {
  claudeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-models-'));
});
afterEach(() => fs.rmSync(claudeDir, { recursive: true, force: true }));

describe('listModels', () => {
  it('config aliases first, then providers in every accepted shape; odd files skipped', () => {
    const dir = path.join(claudeDir, 'providers');
    fs.mkdirSync(path.join(dir, 'kimi'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'glm.json'),
      JSON.stringify({ env: { ANTHROPIC_MODEL: 'glm-4.6', ANTHROPIC_AUTH_TOKEN: 'x' } }),
    );
    fs.writeFileSync(
      path.join(dir, 'ds.json'),
      JSON.stringify({ name: 'deepseek', settingsConfig: { env: { ANTHROPIC_MODEL: 'deepseek-chat' } } }),
    );
    fs.writeFileSync(path.join(dir, 'sonnet.json'), JSON.stringify({ model: 'shadowed-by-config' }));
    fs.writeFileSync(path.join(dir, 'kimi', 'settings.json'), JSON.stringify({ model: 'kimi-k2' }));
    fs.writeFileSync(path.join(dir, 'broken.json'), '{ nope');
    fs.writeFileSync(path.join(dir, 'nomodel.json'), JSON.stringify({ env: {} }));
    fs.writeFileSync(path.join(dir, 'README.md'), '# notes');
    expect(listModels({ sonnet: 'claude-sonnet-4-5', opus: 'claude-opus-4-1' }, claudeDir)).toEqual([
      { alias: 'sonnet', model: 'claude-sonnet-4-5', source: 'config' },
      { alias: 'opus', model: 'claude-opus-4-1', source: 'config' },
      { alias: 'deepseek', model: 'deepseek-chat', source: 'provider:ds.json' },
      { alias: 'glm', model: 'glm-4.6', source: 'provider:glm.json' },
      { alias: 'kimi', model: 'kimi-k2', source: 'provider:kimi' },
    ]);
  });

  it('no providers directory → config only; resolveModel maps aliases and passes ids through', () => {
    const choices = listModels({ sonnet: 'claude-sonnet-4-5' }, path.join(claudeDir, 'missing'));
    expect(choices).toEqual([{ alias: 'sonnet', model: 'claude-sonnet-4-5', source: 'config' }]);
    expect(resolveModel(' sonnet ', choices)).toBe('claude-sonnet-4-5');
    expect(resolveModel('claude-haiku-4-5', choices)).toBe('claude-haiku-4-5');
  });
});
