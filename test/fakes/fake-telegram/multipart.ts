/** One part of a multipart/form-data body: a field's text or a file's bytes. */
export interface FormPart {
  name: string;
  filename?: string;
  data: Buffer;
}

/**
 * Parses a multipart/form-data body (what grammY sends for an upload) into its parts. Enough for
 * the fake: headers per part, `name` and `filename` from Content-Disposition, the bytes as sent.
 */
export function parseMultipart(body: Buffer, contentType: string): FormPart[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  const mark = Buffer.from(`--${boundary?.[1] ?? boundary?.[2] ?? ''}`);
  const parts: FormPart[] = [];
  let at = body.indexOf(mark);
  while (at >= 0) {
    const start = at + mark.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(mark, start);
    if (next < 0) break;
    const chunk = body.subarray(start + 2, next - 2); // after CRLF, before CRLF--boundary
    const split = chunk.indexOf('\r\n\r\n');
    const head = chunk.subarray(0, split).toString('utf8');
    // grammY writes `filename=a.png` unquoted; browsers quote it.
    const name = /[;:]\s*name="([^"]*)"/.exec(head)?.[1] ?? '';
    const filename = /filename="?([^";\r\n]*)"?/.exec(head)?.[1];
    parts.push({ name, ...(filename !== undefined ? { filename } : {}), data: chunk.subarray(split + 4) });
    at = next;
  }
  return parts;
}
