// The page's only way to the server: same-origin fetch (the HttpOnly cookie rides along) and one
// EventSource. Nothing is ever fetched from anywhere else.
import { currentLang } from './i18n.js';

/**
 * Calls the JSON API; resolves with the body, rejects with an Error carrying the server's message.
 * `body` goes as JSON; `raw` (a Blob or bytes, with `headers` such as a file name) as is.
 */
export async function api(path, { method = 'GET', body, raw, headers: extra = {} } = {}) {
  const headers = { 'X-Console-Lang': currentLang(), Accept: 'application/json', ...extra };
  if (raw !== undefined) headers['Content-Type'] = 'application/octet-stream';
  else if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    credentials: 'same-origin',
  });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (res.status === 401) {
    location.reload();
    throw new Error('unauthorized');
  }
  if (!res.ok) throw Object.assign(new Error((data && data.error) || `HTTP ${res.status}`), { status: res.status });
  return data;
}

/**
 * Opens the event stream; `handlers[type](data)` per event, `onOpen` on every (re)connect so
 * pages can refetch what they show, `onDown` when it drops (EventSource retries by itself).
 */
export function openEvents(handlers, onOpen, onDown) {
  const source = new EventSource('/api/events');
  source.addEventListener('open', () => onOpen());
  source.addEventListener('error', () => onDown());
  for (const [type, fn] of Object.entries(handlers)) {
    source.addEventListener(type, (e) => {
      try {
        fn(JSON.parse(e.data));
      } catch (err) {
        console.error('event handler failed', type, err);
      }
    });
  }
  return source;
}

/** A v4 UUID; works in insecure contexts too (a LAN address over http has no crypto.randomUUID). */
export function uuid() {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Creates an element: `el('div', {class: 'x', text: 'hi'}, child…)`. Text always goes in as textContent. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') node.textContent = v;
    else if (k === 'class') node.className = v;
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}
