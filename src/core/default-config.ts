import { configSchema, type Config } from './config-schema.js';

/**
 * The embedded defaults: what cc-linker runs with when there is no config file at all.
 * Tests build their configs from this plus overrides rather than writing TOML.
 */
export function defaultConfig(): Config {
  return configSchema.parse({});
}
