import fs from 'node:fs/promises';
import path from 'node:path';
import { FEISHU_APP_ID_PATTERN } from '../../channels/feishu/check-credentials.js';
import { validateConfig } from '../../core/config-validate.js';
import { expandHome } from '../../core/expand-home.js';
import type { Language } from '../../core/i18n.js';

/**
 * Every answer `cc-linker setup` can take from the command line. An absent field means "not
 * given": the wizard asks, or (non-interactive) the environment, the existing file or the default
 * answers it. `check`, `yes` and `skipFeishu` are switches, not answers.
 */
export interface SetupFlags {
  appId?: string;
  appSecret?: string;
  domain?: string;
  owner?: string;
  /** `--auto-bind-owner` / `--no-auto-bind-owner`; absent = keep the file's value. */
  autoBindOwner?: boolean;
  defaultCwd?: string;
  allowedRoot?: string[];
  language?: string;
  /** `--no-check` sets false: skip the credential check. */
  check: boolean;
  /** Never ask; answers come from flags, the environment, the existing file and defaults. */
  yes: boolean;
  /** Configure the local console only; the Feishu keys stay as they are. */
  skipFeishu: boolean;
  /**
   * `--channels`: the chat apps to set up (`feishu,telegram`, or `none`); absent = those given
   * flags or variables, else those already configured, else Feishu. A choice, not an answer: the
   * wizard still asks the chosen apps' questions.
   */
  channels?: string;
  /** The chat apps' own options (`ChatAppSetup.options`) by key, e.g. `telegramBotToken`. */
  chatFlags?: Readonly<Record<string, string | boolean | undefined>>;
}

/** Environment variables that answer setup's questions (the same ones `loadConfig` applies). */
export const SETUP_ENV = {
  appId: 'CC_LINKER_FEISHU_APP_ID',
  appSecret: 'CC_LINKER_FEISHU_APP_SECRET',
  domain: 'CC_LINKER_FEISHU_DOMAIN',
  owner: 'CC_LINKER_FEISHU_OWNER_OPEN_ID',
  defaultCwd: 'CC_LINKER_FEISHU_DEFAULT_CWD',
  language: 'CC_LINKER_LANGUAGE',
} as const;

/** True when any answer flag was given (a switch alone does not count). */
export function hasAnswerFlags(flags: SetupFlags): boolean {
  return [
    flags.appId,
    flags.appSecret,
    flags.domain,
    flags.owner,
    flags.autoBindOwner,
    flags.defaultCwd,
    flags.allowedRoot,
    flags.language,
  ].some((v) => v !== undefined);
}

/** Whether the config schema accepts `value` for `section.key`: an answer is checked by the rule the file is read with. */
export function schemaAccepts(section: string, key: string, value: unknown): boolean {
  return validateConfig({ [section]: { [key]: value } }).ok;
}

/** `zh` / `en` (also `中文`, `English`, `zh-CN`, `en_US`); undefined for anything else. */
export function parseLanguageAnswer(text: string): Language | undefined {
  const s = text.trim().toLowerCase();
  if (/^(zh([-_].*)?|中文|chinese)$/.test(s)) return 'zh';
  if (/^(en([-_].*)?|english)$/.test(s)) return 'en';
  return undefined;
}

/**
 * `feishu_bot.domain` from an answer: `feishu` (or `1`, `飞书`), `lark` (or `2`), or a base URL
 * (trailing slashes dropped). Undefined when it is none of these.
 */
export function parseDomainAnswer(text: string): string | undefined {
  const s = text.trim();
  const lower = s.toLowerCase();
  if (lower === 'feishu' || lower === '1' || s === '飞书') return 'feishu';
  if (lower === 'lark' || lower === '2' || lower === 'larksuite') return 'lark';
  if (/^https?:\/\/\S+$/i.test(s)) return s.replace(/\/+$/, '');
  return undefined;
}

/** The host a domain setting talks to, for messages ("checking with open.feishu.cn"). */
export function domainHost(domain: string): string {
  if (domain === 'feishu') return 'open.feishu.cn';
  if (domain === 'lark') return 'open.larksuite.com';
  try {
    return new URL(domain).host;
  } catch {
    return domain;
  }
}

/** Feishu app ids are `cli_` + 16 hex digits (the SDK's long connection ignores anything else). */
export function isAppId(text: string): boolean {
  return FEISHU_APP_ID_PATTERN.test(text);
}

/** Feishu open_ids start with `ou_`. */
export function isOpenId(text: string): boolean {
  return /^ou_[A-Za-z0-9_-]+$/.test(text);
}

/** A directory answer: how it is written to the file, and where it really is. */
export type DirectoryAnswer =
  { ok: true; written: string; real: string } | { ok: false; problem: 'dirMissing' | 'dirNotDirectory'; shown: string };

/**
 * Checks that a directory the user named exists. `~/…` is kept as typed (the file stays portable
 * and readable); a relative path is made absolute against `cwd`, since the config is read from
 * elsewhere later.
 */
export async function resolveDirectory(input: string, opts: { home: string; cwd: string }): Promise<DirectoryAnswer> {
  const trimmed = input.trim();
  const tilde = trimmed === '~' || trimmed.startsWith('~/');
  const written = tilde ? trimmed.replace(/(.)\/+$/, '$1') : path.resolve(opts.cwd, trimmed);
  const absolute = tilde ? expandHome(written, opts.home) : written;
  try {
    const real = await fs.realpath(absolute);
    const stat = await fs.stat(real);
    if (!stat.isDirectory()) return { ok: false, problem: 'dirNotDirectory', shown: written };
    return { ok: true, written, real };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, problem: code === 'ENOTDIR' ? 'dirNotDirectory' : 'dirMissing', shown: written };
  }
}
