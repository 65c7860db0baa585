import { Readable } from 'node:stream';

/** A download opened for streaming: the body, and what the server said about it. */
export interface OpenedDownload {
  stream: Readable;
  contentType?: string;
  contentLength?: number;
}

/**
 * GETs `url` for streaming (60 s at most; `init` may add headers or refuse redirects). A non-2xx
 * answer throws an error naming the status only — the URL may hold a token and is never put in it.
 */
export async function fetchDownload(url: string, init: RequestInit = {}): Promise<OpenedDownload> {
  const res = await fetch(url, { signal: AbortSignal.timeout(60_000), ...init });
  if (!res.ok || !res.body) throw new Error(`download answered HTTP ${res.status}`);
  const length = Number(res.headers.get('content-length') ?? Number.NaN);
  const type = res.headers.get('content-type');
  return {
    stream: Readable.fromWeb(res.body as Parameters<typeof Readable.fromWeb>[0]),
    ...(Number.isFinite(length) ? { contentLength: length } : {}),
    ...(type ? { contentType: type } : {}),
  };
}
