// One bridge message rendered into a log (the open session's live turns, or the Activity panel):
// the user's own text as text (with the names of the files it carried), a reply as the server's escaped HTML (stream updates replace it).
import { el } from './api.js';

/** Creates or updates message `m`'s node in `box` and keeps it in view. */
export function renderMessage(box, m) {
  box.querySelector('.empty')?.remove();
  let node = box.querySelector(`[data-id="${CSS.escape(m.id)}"]`);
  if (!node) {
    node = el('div', { dataset: { id: m.id, at: m.at } });
    box.append(node);
  }
  node.className = `msg ${m.kind === 'user' ? 'msg-user' : 'msg-bot'}${m.streaming ? ' streaming' : ''}`;
  if (m.kind === 'user') {
    node.textContent = m.text;
    const files = (m.files ?? []).map((f) => el('span', { class: 'msg-file', text: `📎 ${f.name}` }));
    if (files.length) node.append(el('span', { class: 'msg-files' }, ...files));
  } else node.innerHTML = m.html; // rendered by the server's escaping reply renderer
  node.scrollIntoView({ block: 'nearest' });
}

/**
 * The live messages of each session seen so far (history and the event stream), by session id:
 * a session's view shows those newer than its transcript's last turn.
 */
export function createLiveStore() {
  const bySession = new Map();
  return {
    put(m) {
      if (!m.sessionId) return;
      if (!bySession.has(m.sessionId)) bySession.set(m.sessionId, new Map());
      bySession.get(m.sessionId).set(m.id, m);
    },
    /** Session `id`'s messages after `since` (ISO, or null for all), oldest first. */
    of(id, since) {
      const all = [...(bySession.get(id)?.values() ?? [])];
      return since ? all.filter((m) => m.at > since || m.streaming) : all;
    },
  };
}
