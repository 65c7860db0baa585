// The new-session form's directory picker: the allowed roots, or one directory's subdirectories
// (the server checks every path against the allowed and denied roots).
import { api, el } from './api.js';
import { t } from './i18n.js';

const $ = (id) => document.getElementById(id);

/** The directory picker: the allowed roots, or one directory's subdirectories (all checked server-side). */
export async function browse(path, toast) {
  const listing = await api(`/api/dirs${path ? `?path=${encodeURIComponent(path)}` : ''}`);
  const list = $('dir-list');
  list.dataset.path = listing.path || '';
  $('dir-error').hidden = !listing.error;
  $('dir-error').textContent = listing.error || '';
  if (listing.path) $('dir-path').value = listing.path;
  const rows = [];
  if (listing.parent)
    rows.push(
      el(
        'li',
        {},
        el('button', {
          type: 'button',
          class: 'btn btn-link',
          text: `⬆ ${t('newUp')}`,
          onclick: () => browse(listing.parent, toast).catch((e) => toast(e.message)),
        }),
      ),
    );
  for (const entry of listing.entries) {
    rows.push(
      el(
        'li',
        { class: 'dir-row' },
        el('button', {
          type: 'button',
          class: 'btn btn-link dir-enter',
          text: `📁 ${listing.path ? entry.name : entry.shown}`,
          onclick: () => browse(entry.path, toast).catch((e) => toast(e.message)),
        }),
        el('button', {
          type: 'button',
          class: 'btn btn-small dir-use',
          text: t('newUse'),
          'aria-label': `${t('newUse')} ${entry.shown}`,
          onclick: () => {
            $('dir-path').value = entry.path;
            $('new-prompt').focus();
          },
        }),
      ),
    );
  }
  list.replaceChildren(...rows);
}
