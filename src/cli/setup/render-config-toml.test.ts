import fc from 'fast-check';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { CONFIG_SPEC } from '../../core/config-schema.js';
import { validateConfig } from '../../core/config-validate.js';
import { defaultConfig } from '../../core/default-config.js';
import { renderConfigToml } from './render-config-toml.js';

const readBack = (text: string) => {
  const r = validateConfig(parseToml(text) as Record<string, unknown>);
  if (!r.ok) throw new Error(`${r.issues[0].key}: ${r.issues[0].expected}`);
  return r.config;
};

describe('renderConfigToml', () => {
  it('writes every section and key of the schema, each key under its own comment, in both languages', () => {
    for (const lang of ['zh', 'en'] as const) {
      const lines = renderConfigToml(defaultConfig(), { lang }).split('\n');
      for (const [section, spec] of Object.entries(CONFIG_SPEC)) {
        const header = lines.indexOf(`[${section}]`);
        expect(header, `[${section}] in ${lang}`).toBeGreaterThan(0);
        expect(lines[header - 1]).toMatch(/^# \S/);
        for (const [key, field] of Object.entries(spec)) {
          if (field.t === 'tables' || field.t === 'rest') continue;
          const at = lines.findIndex((l, i) => i > header && l.startsWith(`${key} = `));
          expect(at, `${section}.${key} in ${lang}`).toBeGreaterThan(header);
          expect(lines[at - 1], `comment above ${section}.${key}`).toMatch(/^# \S/);
        }
      }
    }
  });

  it('reads back to the same config (defaults, providers, model map, odd strings)', () => {
    const config = defaultConfig();
    config.feishu_bot.app_secret = 'quote " backslash \\ tab \t newline \n del \u007f nul \u0000 emoji 🚀';
    config.feishu_bot.default_cwd = '/tmp/空 格/dir';
    config.claude.models = { sonnet: 'claude-sonnet-4-5', 'odd key': 'x' };
    config.ccexec.providers = {
      local: {
        kind: 'openai-compatible',
        base_url: 'http://127.0.0.1:1/v1',
        api_key_env: 'K',
        model: 'm',
        context_limit: 8192,
        tools: false,
      },
    };
    config.security.allowed_roots = [];
    config.agents = {
      default: 'my-agent',
      profiles: {
        codex: { kind: 'acp', env: { CODEX_HOME: '/h/.codex' }, env_pass: ['OPENAI_API_KEY'] },
        'my-agent': { kind: 'acp', command: ['/opt/my agent', '--acp'], env: {}, env_pass: [] },
      },
    };
    const text = renderConfigToml(config, { lang: 'zh' });
    expect(text).toContain('[agents.codex]');
    expect(text).toContain('[agents.my-agent]');
    expect(readBack(text)).toEqual(config);
  });

  it('any string value survives the round trip', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.array(fc.string({ unit: 'binary' }), { maxLength: 4 }),
        (s, roots) => {
          const config = defaultConfig();
          config.feishu_bot.owner_open_id = s;
          config.security.allowed_roots = roots;
          const back = readBack(renderConfigToml(config, { lang: 'en' }));
          expect(back.feishu_bot.owner_open_id).toBe(s);
          expect(back.security.allowed_roots).toEqual(roots);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps keys and sections the schema does not know', () => {
    const raw = parseToml(
      [
        'top = 1',
        '[general]',
        'mystery = { a = [1, 2], "b c" = 1979-05-27 }',
        '[feishu_bot]',
        'app_idd = "typo"',
        '[ccexec]',
        'later = true',
        '[plugins.x]',
        'y = "z"',
      ].join('\n'),
    ) as Record<string, unknown>;
    const text = renderConfigToml(defaultConfig(), { lang: 'en', raw });
    const back = parseToml(text) as Record<string, Record<string, unknown>>;
    expect(back.top).toBe(1);
    expect(back.general?.mystery).toEqual(raw.general && (raw.general as Record<string, unknown>).mystery);
    expect(back.feishu_bot?.app_idd).toBe('typo');
    expect(back.ccexec?.later).toBe(true);
    expect(back.plugins).toEqual({ x: { y: 'z' } });
    expect(readBack(text)).toEqual(defaultConfig());
    expect(text).toContain('# Keys below are unknown to cc-linker');
  });
});
