import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../../../core/app-error.js';

/** Largest JSON body the console accepts (a chat message is at most 10,000 characters). */
export const MAX_JSON_BODY = 64 * 1024;

/**
 * The one Content-Security-Policy of the console: only its own scripts, styles and connections,
 * its own web app manifest and its own service worker.
 */
export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; manifest-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/**
 * An HTTP answer other than 200 that a handler decides on (401, 403, 404, 409, 413, 415, …).
 * `userMessage` is already localized for the requester; nothing else of the request goes back.
 */
export class HttpError extends AppError {
  constructor(
    readonly status: number,
    userMessage: string,
  ) {
    super(`WEB_HTTP_${status}`, userMessage);
  }
}

/**
 * Headers on every response, authorised or not: the CSP, no framing, no MIME sniffing, no
 * referrer (the start URL carries the token), no cross-origin use. No `Access-Control-*` header is
 * ever sent, so no other origin can read an answer.
 */
export function applySecurityHeaders(res: ServerResponse, csp: string = CONSOLE_CSP): void {
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  // The page's own microphone button may record (the browser still asks the user); no frame may.
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(self), geolocation=()');
}

/** Sends a JSON body (never cached). */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const data = Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': data.length,
    'Cache-Control': 'no-store',
  });
  res.end(data);
}

/** Sends an HTML page (never cached), optionally with its own CSP (the login page's inline style hash). */
export function sendHtml(res: ServerResponse, status: number, html: string, extra: Record<string, string> = {}): void {
  const data = Buffer.from(html);
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': data.length,
    'Cache-Control': 'no-store',
    ...extra,
  });
  res.end(data);
}

/**
 * The bytes of a request body of Content-Type `type` (415 otherwise), at most `max` (413 as soon
 * as it, or its declared length, passes: reading stops, so a huge upload costs nothing).
 */
export async function readRawBody(
  req: IncomingMessage,
  type: string,
  max: number,
  messages: { tooLarge: string; badType: string },
): Promise<Buffer> {
  if ((req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() !== type)
    throw new HttpError(415, messages.badType);
  if (Number(req.headers['content-length'] ?? '0') > max) throw new HttpError(413, messages.tooLarge);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) {
      // Stop reading; the server answers 413 with `Connection: close` and then drops the socket.
      req.pause();
      throw new HttpError(413, messages.tooLarge);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads a request body up to `max` bytes; stops reading (413) as soon as it is exceeded, so a
 * huge upload costs nothing. `kind` checks the Content-Type (415 otherwise) — a JSON API that
 * insists on `application/json` cannot be reached by a cross-site HTML form.
 */
export async function readBody(
  req: IncomingMessage,
  kind: 'json' | 'form',
  max: number,
  messages: { tooLarge: string; badType: string; badJson: string },
): Promise<unknown> {
  const expected = kind === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
  const text = (await readRawBody(req, expected, max, messages)).toString('utf8');
  if (kind === 'form') return Object.fromEntries(new URLSearchParams(text));
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, messages.badJson);
  }
}
