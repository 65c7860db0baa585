// One session's whole transcript, as Claude Code shows it: markdown rendered by the server (its
// safe renderer), tool calls as collapsed cards (`$ cmd`, a file chip, an edit's diff), thinking
// behind a remembered toggle, pasted images, a copy button on every code block. The newest page
// comes first; a sentinel at the top loads the earlier page when it scrolls into view, keeping the
// scroll position, until the first message.
import { api, el } from './api.js';
import { addMessages, t } from './i18n.js';
import { TRANSCRIPT_MESSAGES } from './transcript-i18n.js';

addMessages(TRANSCRIPT_MESSAGES);

const PAGE = 50;
const THINKING_KEY = 'ccl-show-thinking';
/** The transcript on screen: a newer `showTranscript` call makes an older one stop. */
let current = null;

/** Shows session `id`'s transcript in `box` (its scroll container), newest messages at the bottom. */
export async function showTranscript(box, id) {
  current?.observer?.disconnect();
  const state = { id, box, before: null, loading: false, observer: null };
  current = state;
  box.classList.add('transcript');
  box.classList.toggle('show-thinking', thinkingShown());
  thinkingBar(box);
  const page = await fetchPage(id, null);
  if (current !== state) return;
  if (page.items.length === 0) return box.replaceChildren(el('p', { class: 'empty', text: t('sNoTurns') }));
  const sentinel = el('div', { class: 'tr-sentinel', text: t('trLoading') });
  box.replaceChildren(sentinel, ...page.items.map((item) => itemNode(id, item)));
  state.before = page.before;
  box.scrollTop = box.scrollHeight;
  if (state.before === null) return sentinel.replaceWith(startMarker());
  state.observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((e) => e.isIntersecting)) loadEarlier(state, sentinel).catch(() => undefined);
    },
    { root: box, rootMargin: '200px 0px 0px 0px' },
  );
  state.observer.observe(sentinel);
}

/**
 * Session `id` again, after it grew (a terminal, a finished turn, a reconnect): the last shown
 * message is redrawn (the agent may have added to it) and the newer ones appended, so what the
 * user reads stays in place — unless they were at the end, which then follows. A gap wider than
 * one page, or a different view, shows the transcript afresh.
 */
export async function appendNewer(box, id) {
  const state = current;
  const shown = box.querySelectorAll(':scope > .turn');
  if (!state || state.id !== id || state.box !== box || shown.length === 0) return showTranscript(box, id);
  const lastNode = shown[shown.length - 1];
  const last = Number(lastNode.dataset.n);
  const page = await fetchPage(id, null);
  if (current !== state) return;
  if (page.items.length === 0 || page.items[0].n > last) return showTranscript(box, id);
  const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  const redrawn = page.items.find((item) => item.n === last);
  if (redrawn) lastNode.replaceWith(itemNode(id, redrawn));
  box.append(...page.items.filter((item) => item.n > last).map((item) => itemNode(id, item)));
  if (atEnd) box.scrollTop = box.scrollHeight;
}

async function loadEarlier(state, sentinel) {
  if (state.loading || state.before === null || current !== state) return;
  state.loading = true;
  try {
    const page = await fetchPage(state.id, state.before);
    if (current !== state) return;
    const { box } = state;
    const height = box.scrollHeight;
    const top = box.scrollTop;
    sentinel.after(...page.items.map((item) => itemNode(state.id, item)));
    // Keep what the user looks at in place: the new messages grow the box above it.
    box.scrollTop = top + (box.scrollHeight - height);
    state.before = page.before;
    if (state.before === null) {
      state.observer.disconnect();
      sentinel.replaceWith(startMarker());
    }
  } finally {
    state.loading = false;
  }
  // Still in view (a short page): the observer does not fire again by itself.
  if (state.before !== null && current === state) {
    const r = sentinel.getBoundingClientRect();
    const b = state.box.getBoundingClientRect();
    if (r.bottom >= b.top - 200) await loadEarlier(state, sentinel);
  }
}

function fetchPage(id, before) {
  const q = new URLSearchParams({ limit: String(PAGE) });
  if (before !== null) q.set('before', before);
  return api(`/api/sessions/${encodeURIComponent(id)}/transcript?${q}`);
}

function startMarker() {
  return el('div', { class: 'tr-start', text: t('trStart') });
}

function thinkingShown() {
  try {
    return localStorage.getItem(THINKING_KEY) === '1';
  } catch {
    return false;
  }
}

/** The "Show thinking" toggle above the box (made once), remembered in localStorage. */
function thinkingBar(box) {
  if (box.previousElementSibling?.classList.contains('tr-bar')) return relabel(box);
  const button = el('button', {
    type: 'button',
    class: 'btn btn-small tr-thinking-toggle',
    onclick: () => {
      const show = !box.classList.contains('show-thinking');
      box.classList.toggle('show-thinking', show);
      try {
        localStorage.setItem(THINKING_KEY, show ? '1' : '0');
      } catch {
        /* private mode: the choice lasts for this page only */
      }
      relabel(box);
    },
  });
  box.before(el('div', { class: 'tr-bar' }, button));
  relabel(box);
}

function relabel(box) {
  const button = box.previousElementSibling?.querySelector('.tr-thinking-toggle');
  if (!button) return;
  const show = box.classList.contains('show-thinking');
  button.textContent = t(show ? 'trHideThinking' : 'trShowThinking');
  button.setAttribute('aria-pressed', String(show));
}

function itemNode(sessionId, item) {
  const node = el('div', { class: `turn turn-${item.role}`, dataset: { n: String(item.n) } });
  if (item.timestamp) node.append(el('div', { class: 'tr-time', text: new Date(item.timestamp).toLocaleString() }));
  for (const text of item.thinking)
    node.append(el('div', { class: 'tr-thinking' }, el('div', { class: 'tr-label', text: t('trThinking') }), text));
  if (item.html) {
    const body = el('div', { class: 'turn-text' });
    body.innerHTML = item.html; // rendered by the server's markdown-it + sanitize-html renderer
    node.append(body);
  }
  for (const n of item.images)
    node.append(
      el('img', {
        class: 'tr-image',
        src: `/api/sessions/${encodeURIComponent(sessionId)}/transcript/images/${n}`,
        alt: t('trImage'),
      }),
    );
  for (const tool of item.tools) node.append(toolNode(tool));
  for (const pre of node.querySelectorAll('pre')) if (pre.querySelector(':scope > code')) addCopy(pre);
  return node;
}

function toolNode(tool) {
  const summary = el('summary', { class: 'tr-tool-summary' }, ...summaryParts(tool));
  const body = el('div', { class: 'tr-tool-body' }, ...inputParts(tool), ...resultParts(tool));
  return el('details', { class: `tr-tool tr-tool-${tool.kind}${tool.isError ? ' tr-tool-error' : ''}` }, summary, body);
}

function summaryParts(tool) {
  switch (tool.kind) {
    case 'bash':
      return [el('code', { class: 'tr-cmd', text: `$ ${tool.command.split('\n')[0]}` })];
    case 'read':
      return [el('span', { class: 'tr-chip', text: `📄 ${tool.path}` })];
    case 'edit':
      return [
        el('span', { class: 'tr-chip', text: `✏️ ${tool.path}` }),
        el('span', { class: 'tr-count-add', text: ` +${tool.added}` }),
        el('span', { class: 'tr-count-del', text: ` −${tool.removed}` }),
      ];
    case 'write':
      return [
        el('span', { class: 'tr-chip', text: `📝 ${tool.path}` }),
        el('span', { class: 'tr-count-add', text: ` +${tool.totalLines}` }),
      ];
    default:
      return [el('span', { class: 'tr-chip', text: `🔧 ${tool.name}` })];
  }
}

function inputParts(tool) {
  switch (tool.kind) {
    case 'bash':
      return [codeBlock(`$ ${tool.command}`, 'tr-cmd-block')];
    case 'read':
      return tool.offset !== null || tool.limit !== null
        ? [el('div', { class: 'meta', text: t('trRange', { from: tool.offset ?? 1, n: tool.limit ?? '…' }) })]
        : [];
    case 'edit':
      return [
        diffNode(
          tool.hunks.flatMap((h) => [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines]),
          tool.truncated ? null : 0,
        ),
      ];
    case 'write':
      return [
        diffNode(
          tool.lines.map((l) => `+${l}`),
          tool.totalLines - tool.lines.length,
        ),
      ];
    default:
      return [codeBlock(tool.input, 'tr-input')];
  }
}

/** Diff lines, each with its add / del / hunk class; `more` lines not shown are counted under them. */
function diffNode(lines, more) {
  const rows = lines.map((line) => {
    const cls = line.startsWith('@@') ? 'tr-hunk' : line[0] === '+' ? 'tr-add' : line[0] === '-' ? 'tr-del' : 'tr-ctx';
    return el('div', { class: `tr-line ${cls}`, text: line });
  });
  if (more === null || more > 0)
    rows.push(el('div', { class: 'tr-line tr-more', text: t('trLines', { n: more === null ? '…' : more }) }));
  return el('div', { class: 'tr-diff' }, ...rows);
}

function resultParts(tool) {
  if (tool.result === null) return [el('div', { class: 'meta', text: t('trNoResult') })];
  return [
    el('div', { class: 'tr-label', text: t(tool.isError ? 'trError' : 'trResult') }),
    codeBlock(tool.result, 'tr-result'),
  ];
}

function codeBlock(text, cls) {
  return el('pre', { class: cls }, el('code', { text }));
}

/** A copy button on a `pre > code`: the clipboard when allowed, else the code is selected for Ctrl+C. */
function addCopy(pre) {
  const code = pre.querySelector(':scope > code');
  const button = el('button', { type: 'button', class: 'tr-copy', text: t('trCopy') });
  button.addEventListener('click', async (e) => {
    e.preventDefault();
    try {
      await navigator.clipboard.writeText(code.textContent);
      button.textContent = t('trCopied');
    } catch {
      getSelection().selectAllChildren(code);
      button.textContent = t('trCopySelect');
    }
    setTimeout(() => (button.textContent = t('trCopy')), 2000);
  });
  pre.classList.add('tr-has-copy');
  pre.prepend(button);
}
