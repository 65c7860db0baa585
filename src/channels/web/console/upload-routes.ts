import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { TooLarge } from '../../../bridge/inbound-files/save-stream.js';
import type { Config } from '../../../core/config-schema.js';
import { formatBytes } from '../../../core/format-bytes.js';
import type { Language } from '../../../core/i18n.js';
import { attachmentDisposition } from '../http/content-disposition.js';
import { HttpError } from '../http/http-io.js';
import { httpMessages } from '../http/http-messages.js';
import type { SentFiles } from '../sent-files.js';
import { webFileMessages } from '../web-file-messages.js';
import type { WebOutbox } from '../web-outbox.js';
import { MAX_ATTACHMENTS, type Attachments, type WebUploads } from '../web-uploads.js';
import { consoleMessages } from './console-messages.js';

/** What the file routes need of the API's context. */
export interface FileRouteContext {
  config: Config;
  outbox: WebOutbox;
  uploads: WebUploads;
  sentFiles: SentFiles;
}

interface FileCall {
  req: IncomingMessage;
  res: ServerResponse;
  params: string[];
  lang: Language;
}

/** Longest `X-File-Name` header read (the name is sanitised to 200 bytes anyway). */
const MAX_NAME_HEADER = 2048;

/**
 * The console's file routes (joined into `api-routes.ts`'s table; every one already authorised,
 * the POST already same-origin checked): `POST /api/uploads` takes one file as the raw body
 * (`application/octet-stream`, its name URI-encoded in `X-File-Name`), streamed to disk under
 * `files.max_size_bytes` — past it 413 and nothing kept — and answers `{ upload: { id, name, size,
 * mime, image } }`; `GET /api/files/sent/<id>` serves a file the agent sent, only an id the outbox
 * wrote, as an attachment (never rendered by the browser).
 */
export const FILE_ROUTES: Array<{
  method: 'GET' | 'POST';
  path: RegExp;
  handler: (ctx: FileRouteContext, c: FileCall) => Promise<unknown>;
}> = [
  {
    method: 'POST',
    path: /^\/api\/uploads$/,
    handler: async (ctx, c) => {
      const t = webFileMessages(c.lang);
      if (!ctx.config.files.enabled) throw new HttpError(403, t('uploadsOff'));
      const type = (c.req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/octet-stream') throw new HttpError(415, t('uploadType'));
      const declared = c.req.headers['content-length'];
      const length = declared === undefined ? undefined : Number(declared);
      try {
        return { upload: await ctx.uploads.save(c.req, fileName(c.req), length) };
      } catch (err) {
        if (err instanceof TooLarge)
          throw new HttpError(413, t('uploadTooLarge', { size: formatBytes(ctx.config.files.max_size_bytes) }));
        throw err;
      }
    },
  },
  {
    method: 'GET',
    path: /^\/api\/files\/sent\/([0-9a-f]{32})$/,
    handler: async (ctx, c) => {
      const id = c.params[0] as string;
      const file = ctx.outbox.sentFile(id);
      if (!file) throw new HttpError(404, httpMessages(c.lang)('notFound'));
      const copy = await ctx.sentFiles.open(id);
      if (!copy) throw new HttpError(410, webFileMessages(c.lang)('sentFileGone'));
      c.res.writeHead(200, {
        // An image is named as one so an <img> shows it; anything else is bytes to save.
        'Content-Type': file.image ? file.mime : 'application/octet-stream',
        'Content-Length': copy.size,
        'Content-Disposition': attachmentDisposition(file.name),
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'private, no-store',
      });
      await pipeline(copy.stream, c.res).catch(() => c.res.destroy());
    },
  },
];

/** The upload's name from `X-File-Name` (URI-encoded UTF-8); a missing or undecodable one is `file`. */
function fileName(req: IncomingMessage): string {
  const raw = req.headers['x-file-name'];
  if (typeof raw !== 'string' || raw === '' || raw.length > MAX_NAME_HEADER) return 'file';
  try {
    return decodeURIComponent(raw);
  } catch {
    return 'file';
  }
}

/** A message body's `files` (upload ids): absent = none; otherwise an array of at most `MAX_ATTACHMENTS` strings. */
export function fileIds(value: unknown, lang: Language): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    throw new HttpError(400, consoleMessages(lang)('badRequest', { reason: 'files' }));
  if (value.length > MAX_ATTACHMENTS)
    throw new HttpError(400, webFileMessages(lang)('uploadTooMany', { max: MAX_ATTACHMENTS }));
  return value as string[];
}

/**
 * The attachments of page message `uuid`, taken from the uploads; an id this console did not
 * store, or that another message took, refuses the whole message (400) before anything is
 * recorded or queued — the text never runs without the files it named. A command (`/…`) takes none.
 */
export async function takeAttachments(
  uploads: WebUploads,
  ids: readonly string[],
  uuid: string,
  text: string,
  lang: Language,
): Promise<Attachments | undefined> {
  if (ids.length === 0) return undefined;
  if (text.trimStart().startsWith('/')) throw new HttpError(400, webFileMessages(lang)('uploadWithCommand'));
  const taken = await uploads.take(ids, uuid);
  if ('unknown' in taken) throw new HttpError(400, webFileMessages(lang)('uploadUnknown', { id: taken.unknown }));
  return taken;
}
