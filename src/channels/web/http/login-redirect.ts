const BASE = 'http://console.invalid';
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Where `GET <path>?token=…` sends the browser after logging it in: the same path on this console,
 * with the `token` parameter taken out of the query and every other parameter kept as it was.
 *
 * The answer is only ever a same-origin path — one `/`, then no second `/` or `\` (a browser reads
 * `//host` and `/\host` as another host), no scheme, no host, no control character, and none of
 * these hidden behind percent-escapes (`/%2F%2Fhost`). Dot segments are resolved first, so
 * `/.//host` and `/..//host` are judged as the `//host` a browser would make of them. Anything else
 * gives `/`.
 *
 * @example
 *   loginRedirect('/?token=abc&view=chat'); // '/?view=chat'
 *   loginRedirect('/.//evil.com?token=abc'); // '/'
 */
export function loginRedirect(requestTarget: string): string {
  let url: URL;
  try {
    url = new URL(requestTarget, BASE);
  } catch {
    return '/';
  }
  if (url.origin !== BASE || !isLocalPath(url.pathname)) return '/';
  const query = url.search
    .slice(1)
    .split('&')
    .filter((part) => part !== '' && paramName(part) !== 'token');
  const search = query.length > 0 ? `?${query.join('&')}` : '';
  return CONTROL.test(search) ? '/' : `${url.pathname}${search}`;
}

/** A path that stays on this origin, as written and once its percent-escapes are decoded. */
function isLocalPath(pathname: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  return [pathname, decoded].every((p) => /^\/(?![/\\])/.test(p) && !p.includes('\\') && !CONTROL.test(p));
}

/** The decoded name of one `name=value` query part (`+` is a space, as URLSearchParams reads it). */
function paramName(part: string): string {
  const raw = part.split('=', 1)[0] as string;
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}
