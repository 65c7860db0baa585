import type { ServerResponse } from 'node:http';
import type { Language } from '../../../core/i18n.js';
import { MAX_PAGE } from '../../../sessions/present/transcript-page.js';
import { HttpError } from '../http/http-io.js';
import { httpMessages } from '../http/http-messages.js';
import { renderMarkdown } from '../render-markdown.js';
import { consoleMessages } from './console-messages.js';
import type { ConsoleSessions } from './console-sessions.js';

/** Messages per page when the page does not ask for a number. */
const DEFAULT_PAGE = 50;

/**
 * `GET /api/sessions/:id/transcript?before=<cursor>&limit=<n ≤ 100>`: the newest page first,
 * `{ items, before, total }`, each item's markdown rendered by the safe `renderMarkdown` (`html`;
 * the raw text is not sent again). 404 when the session or its file is not there, 400 for a bad cursor.
 */
export async function transcriptBody(
  sessions: ConsoleSessions,
  id: string,
  url: URL,
  lang: Language,
): Promise<unknown> {
  if (!sessions.transcript) throw new HttpError(404, httpMessages(lang)('notFound'));
  const before = url.searchParams.get('before') || null;
  const asked = Number.parseInt(url.searchParams.get('limit') ?? '', 10);
  const limit = Number.isFinite(asked) && asked > 0 ? Math.min(asked, MAX_PAGE) : DEFAULT_PAGE;
  const view = await sessions.transcript(id, before, limit);
  if (view === null) throw new HttpError(404, httpMessages(lang)('notFound'));
  if (view === 'bad-cursor') throw new HttpError(400, consoleMessages(lang)('badRequest', { reason: 'before' }));
  return {
    items: view.items.map(({ text, ...item }) => ({ ...item, html: renderMarkdown(text) })),
    before: view.before,
    total: view.total,
  };
}

/**
 * `GET /api/sessions/:id/transcript/images/<n>`: a pasted image, sent with the type its bytes show
 * (PNG, JPEG, GIF, WebP only), under the console's headers (`nosniff`, same-origin). The page's CSP
 * allows `img-src 'self'` and not `data:`, so images come from here rather than inline.
 */
export async function sendTranscriptImage(
  sessions: ConsoleSessions,
  id: string,
  n: string,
  res: ServerResponse,
  lang: Language,
): Promise<void> {
  const image = sessions.transcriptImage ? await sessions.transcriptImage(id, Number(n)) : null;
  if (!image) throw new HttpError(404, httpMessages(lang)('notFound'));
  res.writeHead(200, {
    'Content-Type': image.type,
    'Content-Length': image.data.length,
    'Cache-Control': 'private, max-age=300',
  });
  res.end(image.data);
}
