import { bundledClaudeBinary } from '../../../src/claude/find-claude-binary.js';

/**
 * The environment for a real `claude` child (or the Agent SDK's `env` option, which REPLACES the
 * child's whole environment) that keeps it fully offline: sessions under `<home>/.claude`, the
 * only connection to `baseUrl` (the fake), no update checks, telemetry or error reporting.
 * PATH is inherited so the CLI's Bash tool finds `sh`, `echo`, `touch`…; nothing else leaks in
 * (no real API key, no real HOME). `IS_SANDBOX` is deliberately absent: it is only needed for
 * `--dangerously-skip-permissions` as root, which these tests do not use.
 */
export function claudeTestEnv(opts: { home: string; baseUrl: string }): NodeJS.ProcessEnv {
  return {
    HOME: opts.home,
    ANTHROPIC_BASE_URL: opts.baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test-key',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
  };
}

/**
 * Absolute path of the Claude Code binary bundled by `@anthropic-ai/claude-agent-sdk`, resolved
 * exactly as the product does (`bundledClaudeBinary`); `null` when no matching package is installed
 * (tests then skip instead of failing on an unrelated platform).
 */
export function bundledClaudePath(): string | null {
  return bundledClaudeBinary();
}
