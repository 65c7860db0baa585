/** The file name for the plain `filename=` parameter: printable ASCII without quotes or backslashes. */
const asciiName = (name: string): string => name.replace(/[^\x20-\x7e]|["\\]/g, '_');

/**
 * `Content-Disposition: attachment` for a download named `name` (RFC 6266): an ASCII fallback and
 * the exact name UTF-8-encoded, so the browser saves it and never shows it in the page.
 *
 * @example attachmentDisposition('报告.pdf') // `attachment; filename="__.pdf"; filename*=UTF-8''%E6%8A%A5%E5%91%8A.pdf`
 */
export function attachmentDisposition(name: string): string {
  return `attachment; filename="${asciiName(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
