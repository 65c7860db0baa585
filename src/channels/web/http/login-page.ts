import { createHash } from 'node:crypto';
import type { Language } from '../../../core/i18n.js';
import { escapeHtml } from './escape-html.js';
import { httpMessages } from './http-messages.js';

const STYLE =
  'body{font:16px system-ui,sans-serif;max-width:24rem;margin:15vh auto;padding:0 1rem;color:#1f2328}input,button{font:inherit;padding:.5rem;width:100%;min-height:2.75rem;box-sizing:border-box;margin:.25rem 0}button{cursor:pointer}.err{color:#b42318}.hint{font-size:.9rem;color:#59636e}code{overflow-wrap:anywhere}@media(prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}}';
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/** The login page's CSP: nothing but its own inline style (by hash) and a form posting to itself. */
export const LOGIN_CSP = `default-src 'none'; style-src ${STYLE_HASH}; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

/** Where the token the login page asks for is kept, shown on the page (`~/…`, see `tildify`). */
export interface LoginHint {
  /** `file`: the token file (`~/.cc-linker/web-token`); `config`: `web.token` in the config file. */
  source: 'file' | 'config';
  /** The file, tildified. */
  file: string;
}

/**
 * The one page served without the token: a form asking for it (POST `/login`, no script at all).
 * It shows no data — not even whether a Feishu bot or sessions exist — beyond where the token is
 * kept (a path under `~`, never the token) and the command that prints the login URL.
 */
export function loginPage(lang: Language, wrong: boolean, hint?: LoginHint): string {
  const t = httpMessages(lang);
  const where = hint ? t(hint.source === 'config' ? 'loginTokenConfig' : 'loginTokenFile', { file: hint.file }) : '';
  return [
    `<!doctype html><html lang="${lang === 'en' ? 'en' : 'zh-CN'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`,
    `<title>${escapeHtml(t('loginTitle'))}</title><style>${STYLE}</style></head><body>`,
    `<h1>${escapeHtml(t('loginTitle'))}</h1>`,
    `<form method="post" action="/login"><label for="token">${escapeHtml(t('loginPrompt'))}</label>`,
    `<input id="token" name="token" type="password" autocomplete="current-password" required autofocus>`,
    wrong ? `<p class="err" role="alert">${escapeHtml(t('loginWrong'))}</p>` : '',
    `<button type="submit">${escapeHtml(t('loginButton'))}</button></form>`,
    `<p class="hint">${where ? `${escapeHtml(where)} ` : ''}${escapeHtml(t('loginPrintUrl'))}</p></body></html>`,
  ].join('');
}
