// A composer's attachments: files and images added by the attach button (a file picker, several at
// once), dropped onto the session's view, or pasted into the text box. Each is uploaded at once
// (POST /api/uploads, the raw bytes, its name URI-encoded in X-File-Name) and shown as a chip —
// name, size, × to remove, an upload error inline; the message then carries the upload ids. Loaded
// on first use (it is not part of the page's first load), with its styles (attach.css).
import { api, el } from './api.js';
import { addMessages, t } from './i18n.js';
import attachMessages from './attach-i18n.js';
import { formatBytes } from './format-bytes.js';

addMessages(attachMessages);

/** The server's file limits (`/api/settings`), asked once; null while unknown (the server still checks). */
let limits = null;
function loadLimits() {
  api('/api/settings').then(
    (s) => (limits = s.files ?? null),
    () => undefined,
  );
}

/** Uploads one file; resolves with the server's `{ id, name, size, mime, image }`, rejects with its message. */
async function upload(file) {
  if (limits && !limits.enabled) throw new Error(t('attachOff'));
  if (limits && file.size > limits.maxBytes)
    throw new Error(t('attachTooLarge', { max: formatBytes(limits.maxBytes) }));
  const headers = { 'X-File-Name': encodeURIComponent(file.name || 'file') };
  const data = await api('/api/uploads', { method: 'POST', raw: file, headers }).catch((err) => {
    // fetch itself failing (no answer at all) is a TypeError; the server's refusals carry its message.
    throw err instanceof TypeError ? new Error(t('attachNetwork')) : err;
  });
  return data.upload;
}

function loadStyles() {
  if (document.querySelector('link[href="/assets/attach.css"]')) return;
  document.head.append(el('link', { rel: 'stylesheet', href: '/assets/attach.css' }));
}

/**
 * Adds attachments to `form` (a composer): the attach button beside its Send button, the chips
 * above its text box, paste into `input`, and drops anywhere on `dropZone`. Returns what the page's
 * send needs: `ids()` (the uploaded files, in order; rejects while one is still uploading) and
 * `clear()` once the message was taken.
 */
export function initAttach({ form, input, dropZone }) {
  loadStyles();
  loadLimits();
  /** The chips, in order: `{ file, node, state: 'uploading' | 'done' | 'error', upload? }`. */
  const items = [];
  const chips = el('ul', { class: 'attach-chips', 'aria-label': t('attachList') });
  chips.hidden = true;
  const picker = el('input', { type: 'file', multiple: true, hidden: true, class: 'attach-input' });
  const button = el('button', {
    type: 'button',
    class: 'btn attach-btn',
    'aria-label': t('attachButton'),
    // Relabelled with the page when its language changes.
    dataset: { i18n: 'attachShort', i18nLabel: 'attachButton' },
    text: t('attachShort'),
    onclick: () => picker.click(),
  });
  form.querySelector('.composer-buttons')?.prepend(button);
  form.append(picker);
  input.before(chips);

  const render = () => {
    chips.hidden = items.length === 0;
    chips.replaceChildren(...items.map((item) => item.node));
  };
  const remove = (item) => {
    items.splice(items.indexOf(item), 1);
    render();
    input.focus();
  };
  const add = (files) => {
    for (const file of files) {
      const item = { file, state: 'uploading' };
      const status = el('span', { class: 'attach-status', text: t('attachUploading') });
      item.node = el(
        'li',
        { class: 'attach-chip', dataset: { state: 'uploading' } },
        el('span', { class: 'attach-name', text: file.name || 'file' }),
        el('span', { class: 'attach-size', text: formatBytes(file.size) }),
        status,
        el('button', {
          type: 'button',
          class: 'attach-remove',
          'aria-label': t('attachRemove', { name: file.name }),
          text: '×',
          onclick: () => remove(item),
        }),
      );
      items.push(item);
      item.done = upload(file).then(
        (u) => {
          Object.assign(item, { state: 'done', upload: u });
          status.textContent = '';
        },
        (err) => {
          item.state = 'error';
          status.textContent = t('attachFailed', { msg: err.message });
          status.setAttribute('role', 'alert');
        },
      );
      item.done.then(() => (item.node.dataset.state = item.state));
    }
    render();
  };

  picker.addEventListener('change', () => {
    add([...picker.files]);
    picker.value = '';
  });
  input.addEventListener('paste', (e) => {
    const files = [...(e.clipboardData?.files ?? [])];
    if (files.length === 0) return; // plain text pastes as usual
    e.preventDefault();
    add(files);
  });
  let depth = 0;
  const hasFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
  dropZone.addEventListener('dragenter', (e) => {
    if (!hasFiles(e)) return;
    depth += 1;
    dropZone.dataset.dropping = t('attachDrop');
  });
  dropZone.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) delete dropZone.dataset.dropping;
  });
  dropZone.addEventListener('dragover', (e) => {
    if (hasFiles(e)) e.preventDefault();
  });
  dropZone.addEventListener('drop', (e) => {
    depth = 0;
    delete dropZone.dataset.dropping;
    if (!hasFiles(e)) return;
    e.preventDefault();
    add([...e.dataTransfer.files]);
  });

  return {
    /** The ids of the uploaded files, in order; throws while any is still uploading (failed ones are left out). */
    ids() {
      if (items.some((i) => i.state === 'uploading')) throw new Error(t('attachWait'));
      return items.filter((i) => i.state === 'done').map((i) => i.upload.id);
    },
    /** Empties the chips once the message that carried them was taken. */
    clear() {
      items.splice(0);
      render();
    },
  };
}
