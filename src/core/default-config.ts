import type { Config } from './config-schema.js';
import { validateConfig } from './config-validate.js';

/**
 * The embedded defaults: what cc-linker runs with when there is no config file at all.
 * Tests build their configs from this plus overrides rather than writing TOML.
 */
export function defaultConfig(): Config {
  const r = validateConfig({});
  if (!r.ok) throw new Error(`built-in defaults are invalid at ${r.issues[0].key}`);
  return r.config;
}
