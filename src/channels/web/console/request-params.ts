import type { Language } from '../../../core/i18n.js';
import { HttpError } from '../http/http-io.js';
import { consoleMessages } from './console-messages.js';

/** The checks of a console API request's parameters: each bad value is a 400 with the page's wording. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Longest text a page may send (a message, or a new session's command with its prompt). */
export const MAX_TEXT = 10_000;

export function requireText(value: unknown, lang: Language): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_TEXT)
    throw new HttpError(400, consoleMessages(lang)('badRequest', { reason: 'text' }));
  return value;
}

/** A message's text next to its attachments: may be empty when it has some (`withFiles`), never too long. */
export function textBeside(value: unknown, withFiles: boolean, lang: Language): string {
  if (!withFiles || (value !== undefined && value !== '')) return requireText(value, lang);
  return '';
}

export function requireUuid(value: unknown, lang: Language): string {
  if (typeof value !== 'string' || !UUID.test(value))
    throw new HttpError(400, consoleMessages(lang)('badRequest', { reason: 'id' }));
  return value.toLowerCase();
}

export function optString(value: unknown, name: string, lang: Language): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length > 4096)
    throw new HttpError(400, consoleMessages(lang)('badRequest', { reason: name }));
  return value;
}

/** A positive integer query parameter, at most `max`; `fallback` when absent or not one. */
export function intParam(url: URL, name: string, fallback: number, max: number): number {
  const n = Number.parseInt(url.searchParams.get(name) ?? '', 10);
  return Number.isFinite(n) && n > 0 ? Math.min(n, max) : fallback;
}
