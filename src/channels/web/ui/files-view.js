// The session detail's Files tab: a read-only browser of the session's directory (the server keeps
// it inside the allowed roots). Breadcrumbs, directories first, a text file in a <pre>, a binary or
// large file as a download link. Data: GET /api/sessions/:id/files?path=…, …/files/raw?path=….
import { api, el } from './api.js';
import { addMessages, t } from './i18n.js';
import messages from './files-i18n.js';
import { formatBytes } from './format-bytes.js';

addMessages(messages);

/** Shows `rel` (a `/`-separated path, '' for the top) of session `id`'s directory in `box`. */
export async function renderFiles(box, id, rel = '') {
  box.replaceChildren(el('p', { class: 'empty', text: t('fLoading') }));
  const go = (p) => renderFiles(box, id, p);
  let data;
  try {
    data = await api(`/api/sessions/${encodeURIComponent(id)}/files?path=${encodeURIComponent(rel)}`);
  } catch (err) {
    box.replaceChildren(crumbs(rel, go), el('p', { class: 'ws-error', role: 'alert', text: err.message }));
    return;
  }
  const raw = `/api/sessions/${encodeURIComponent(id)}/files/raw?path=${encodeURIComponent(data.path)}`;
  if (data.kind === 'dir') box.replaceChildren(crumbs(data.path, go), listing(data, go));
  else if (data.kind === 'text')
    box.replaceChildren(crumbs(data.path, go), el('pre', { class: 'ws-text', text: data.text }));
  else
    box.replaceChildren(
      crumbs(data.path, go),
      el('p', { class: 'meta', text: t(data.reason === 'binary' ? 'fBinary' : 'fLarge') }),
      el('a', {
        class: 'btn btn-small ws-download',
        href: raw,
        download: data.path.split('/').pop(),
        text: t('fDownload', { size: formatBytes(data.size) }),
      }),
    );
}

function crumbs(rel, go) {
  const parts = rel ? rel.split('/') : [];
  const nav = el('nav', { class: 'ws-crumbs', 'aria-label': t('fRoot') });
  nav.append(el('button', { type: 'button', class: 'link', text: t('fRoot'), onclick: () => go('') }));
  parts.forEach((name, i) => {
    const to = parts.slice(0, i + 1).join('/');
    nav.append(' / ', el('button', { type: 'button', class: 'link', text: name, onclick: () => go(to) }));
  });
  return nav;
}

function listing(data, go) {
  if (data.entries.length === 0) return el('p', { class: 'empty', text: t('fEmpty') });
  const join = (name) => (data.path ? `${data.path}/${name}` : name);
  const rows = data.entries.map((e) =>
    el(
      'li',
      { class: `ws-entry ws-entry-${e.kind}`, dataset: { name: e.name } },
      e.kind === 'other'
        ? el('span', { class: 'ws-entry-name', text: `${e.name} (${t('fOther')})` })
        : el('button', {
            type: 'button',
            class: 'link ws-entry-name',
            text: e.kind === 'dir' ? `${e.name}/` : e.name,
            onclick: () => go(join(e.name)),
          }),
      e.link ? el('span', { class: 'ws-tag', text: t('fLink') }) : null,
      e.kind === 'file' ? el('span', { class: 'ws-size', text: formatBytes(e.size) }) : null,
    ),
  );
  if (data.more > 0) rows.push(el('li', { class: 'meta', text: t('fMore', { n: data.more }) }));
  return el('ul', { class: 'ws-listing' }, ...rows);
}
