import type { Language, LocalizedText } from '../../core/i18n.js';
import { slackMessages } from './slack-messages.js';

/**
 * The bot token scopes the channel needs, each with what it is for (one short phrase). The one
 * list: `docs/slack-app-manifest.yaml` grants exactly these, and `slack-app-manifest.test.ts` checks
 * both against the Web API calls the channel makes (docs/design.md#slack).
 */
export const BOT_SCOPES = {
  'chat:write': { en: 'replies and buttons', zh: '回复与按钮' },
  'im:history': { en: 'your direct messages to the app', zh: '你发给应用的私信' },
  'im:write': { en: 'telling a /cc is in your DM', zh: '确认 /cc 是在私信里发的' },
  'files:read': { en: 'files you send', zh: '你发送的图片与文件' },
  'files:write': { en: 'files the agent sends you', zh: 'agent 发给你的文件' },
  commands: { en: 'the /cc command', zh: '/cc 命令' },
} as const satisfies Record<string, LocalizedText>;

export type BotScope = keyof typeof BOT_SCOPES;

/**
 * The needed scopes missing from `granted` (what Slack's `x-oauth-scopes` header lists, which the
 * Web API client puts in `response_metadata.scopes`), in {@link BOT_SCOPES}' order; `undefined`
 * when Slack did not say (no header, e.g. behind a proxy that drops it): not checked, not missing.
 */
export function missingBotScopes(granted: readonly string[] | undefined): BotScope[] | undefined {
  if (granted === undefined) return undefined;
  const have = new Set(granted.map((s) => s.trim()));
  return (Object.keys(BOT_SCOPES) as BotScope[]).filter((s) => !have.has(s));
}

/** Each scope with what it is for: `files:read (files you send), commands (the /cc command)`. */
export function describeScopes(scopes: readonly BotScope[], lang: Language): string {
  if (lang === 'zh') return scopes.map((s) => `${s}（${BOT_SCOPES[s].zh}）`).join('、');
  return scopes.map((s) => `${s} (${BOT_SCOPES[s].en})`).join(', ');
}

/** One sentence: which scopes are missing, what each is for, and how to add them. */
export function missingScopesText(missing: readonly BotScope[], lang: Language): string {
  return slackMessages(lang)('scopesMissing', { list: describeScopes(missing, lang) });
}

/** The short form for the channel's status line: `missing scopes: files:read, commands`. */
export function missingScopesStatus(missing: readonly BotScope[], lang: Language): string {
  return slackMessages(lang)('statusScopesMissing', { list: missing.join(lang === 'zh' ? '、' : ', ') });
}
