import { defineMessages, type Language } from '../core/i18n.js';
import { redact } from '../core/redact.js';
import { GateError } from './gate-error.js';
import { quoteForReason } from './gate.js';
import { stripCliLogs } from './strip-cli-logs.js';

/**
 * Oldest ChainlessChain CLI the gateway offers `cc_exec` for: 0.165.0. The allowlist was checked
 * against the real CLI of the 0.165.x line (0.165.7), so an older CLI (0.162.x ships on some Android
 * devices) may lack flags the gate allows.
 */
export const MIN_CC_VERSION = '0.165.0';

/** A parsed semantic version; build metadata is dropped (it has no precedence). */
export interface SemVer {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** Dot-separated pre-release identifiers, empty for a release: `0.165.7-beta.1` → `['beta', '1']`. */
  readonly prerelease: readonly string[];
}

/** What start-up learned about the configured CLI; `cc_exec` is offered only when `available`. */
export type CliStatus =
  | { readonly status: 'available'; readonly version: string }
  | { readonly status: 'cli-not-found' }
  | { readonly status: 'cli-too-old'; readonly version: string; readonly min: string }
  | { readonly status: 'cli-broken'; readonly detail: string };

/** How `checkCliVersion` runs `<cli> --version`: the exec service's outcome, reduced to what matters here. */
export type RunVersion = () => Promise<{ exitCode: number | null; stdout: string; spawnErrorCode?: string }>;

const SEMVER =
  /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

/** Parses one version string (`0.165.7`, `v0.165.7-beta.1+abc`); null when it is not one. */
export function parseSemver(text: string): SemVer | null {
  const m = SEMVER.exec(text.trim());
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), prerelease: m[4] ? m[4].split('.') : [] };
}

/**
 * Semantic-version precedence, as Semantic Versioning 2.0 defines it: -1, 0 or 1. A pre-release sorts
 * before its release (`0.165.7-beta.1` < `0.165.7`); numeric identifiers compare as numbers and sort
 * before alphanumeric ones. Throws `GateError` for a string that is not a version — callers pass
 * checked values.
 */
export function compareSemver(a: SemVer | string, b: SemVer | string): -1 | 0 | 1 {
  const x = toSemVer(a);
  const y = toSemVer(b);
  for (const key of ['major', 'minor', 'patch'] as const) {
    if (x[key] !== y[key]) return x[key] < y[key] ? -1 : 1;
  }
  if (x.prerelease.length === 0 || y.prerelease.length === 0) {
    return x.prerelease.length === y.prerelease.length ? 0 : x.prerelease.length === 0 ? 1 : -1;
  }
  for (let i = 0; i < Math.max(x.prerelease.length, y.prerelease.length); i++) {
    const p = x.prerelease[i];
    const q = y.prerelease[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    const order = compareIdentifier(p, q);
    if (order !== 0) return order;
  }
  return 0;
}

/**
 * The version in `<cli> --version` output, or null. The ChainlessChain CLI prints its version and
 * nothing else (`0.165.7` and a newline), so the whole output, trimmed, must be one version
 * (optionally `v`-prefixed); colour codes and the CLI's own `[AppConfig]`/`[DatabaseManager]` log
 * lines are ignored. Another program's banner that merely contains a version — `cc --version`
 * prints `cc (Debian 12.2.0-14) 12.2.0` — is not accepted. Returns it without the `v`.
 *
 * @example
 *   parseCliVersion('v0.165.7-beta.1\n') // '0.165.7-beta.1'
 *   parseCliVersion('cc (Debian 12.2.0-14) 12.2.0\n') // null
 */
export function parseCliVersion(stdout: string): string | null {
  const text = stripCliLogs(stdout.replace(ANSI, '')).trim();
  if (!parseSemver(text)) return null;
  return text.startsWith('v') ? text.slice(1) : text;
}

/**
 * Runs `--version` once and classifies the CLI, failing closed: a missing binary is `cli-not-found`,
 * anything unexpected (non-zero exit, killed, unreadable output, a throw) is `cli-broken`, and an
 * older version is `cli-too-old` — in every case but `available` the tool is not offered to the model,
 * and the chat says why.
 */
export async function checkCliVersion(runVersion: RunVersion, min: string = MIN_CC_VERSION): Promise<CliStatus> {
  let result: Awaited<ReturnType<RunVersion>>;
  try {
    result = await runVersion();
  } catch (err) {
    return {
      status: 'cli-broken',
      detail: `--version failed: ${clean(err instanceof Error ? err.message : String(err))}`,
    };
  }
  if (result.spawnErrorCode === 'ENOENT') return { status: 'cli-not-found' };
  if (result.spawnErrorCode)
    return { status: 'cli-broken', detail: `could not start the CLI (${clean(result.spawnErrorCode)})` };
  if (result.exitCode !== 0) {
    return {
      status: 'cli-broken',
      detail:
        result.exitCode === null ? '--version did not exit normally' : `--version exited with code ${result.exitCode}`,
    };
  }
  const version = parseCliVersion(result.stdout);
  if (!version)
    return {
      status: 'cli-broken',
      detail: `unrecognised --version output ${quoteForReason(clean(result.stdout.trim()))}, not the ChainlessChain CLI (it prints only its version, e.g. 0.165.7)`,
    };
  return classifyCliVersion(version, min);
}

/** A version `--version` printed, against `min`: `available` or `cli-too-old` (also for a cached version). */
export function classifyCliVersion(version: string, min: string = MIN_CC_VERSION): CliStatus {
  if (compareSemver(version, min) < 0) return { status: 'cli-too-old', version, min };
  return { status: 'available', version };
}

const messages = defineMessages({
  zh: {
    available: '🔧 工具调用可用：ChainlessChain CLI {version}',
    notFound:
      '🔧 找不到 ChainlessChain CLI（{cli}），cc_exec 工具未启用。请安装 chainlesschain，或在配置 [ccexec] cli 中填写它的路径。',
    tooOld: '🔧 ChainlessChain CLI 版本过旧（{version}，需要 ≥ {min}），cc_exec 工具未启用。请升级 chainlesschain。',
    broken:
      '🔧 ChainlessChain CLI（{cli}）无法正常运行：{detail}。cc_exec 工具未启用。请在终端运行 {cli} --version 看它输出什么；必要时重新安装 chainlesschain，或在配置 [ccexec] cli 中改成正确的路径。',
  },
  en: {
    available: '🔧 Tools available: ChainlessChain CLI {version}',
    notFound:
      '🔧 ChainlessChain CLI not found ({cli}); the cc_exec tool is off. Install chainlesschain or set its path in [ccexec] cli.',
    tooOld:
      '🔧 ChainlessChain CLI is too old ({version}, need ≥ {min}); the cc_exec tool is off. Please upgrade chainlesschain.',
    broken:
      '🔧 ChainlessChain CLI ({cli}) does not run properly: {detail}. The cc_exec tool is off. Run {cli} --version in a terminal to see what it prints; reinstall chainlesschain if needed, or set the right path in [ccexec] cli.',
  },
});

/**
 * The one line the chat header shows about tool availability, in the user's language.
 * `cli` is how the configured CLI should be named to the user (e.g. `chainlesschain`).
 */
export function cliStatusMessage(status: CliStatus, lang: Language, cli = 'chainlesschain'): string {
  const t = messages(lang);
  switch (status.status) {
    case 'available':
      return t('available', { version: status.version });
    case 'cli-not-found':
      return t('notFound', { cli });
    case 'cli-too-old':
      return t('tooOld', { version: status.version, min: status.min });
    case 'cli-broken':
      return t('broken', { cli, detail: status.detail });
  }
}

function toSemVer(value: SemVer | string): SemVer {
  if (typeof value !== 'string') return value;
  const parsed = parseSemver(value);
  if (!parsed) throw new GateError('CCEXEC_BAD_VERSION', `not a semantic version: ${quoteForReason(value)}`);
  return parsed;
}

function compareIdentifier(p: string, q: string): -1 | 0 | 1 {
  const pn = /^\d+$/.test(p);
  const qn = /^\d+$/.test(q);
  if (pn && qn) {
    const a = Number(p);
    const b = Number(q);
    return a === b ? 0 : a < b ? -1 : 1;
  }
  if (pn !== qn) return pn ? -1 : 1;
  return p === q ? 0 : p < q ? -1 : 1;
}

/** Keeps details shown to the user short and free of secrets. */
function clean(text: string): string {
  const line = redact(text).split('\n', 1)[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}
