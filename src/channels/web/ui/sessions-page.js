// The sessions pages: the registry with search and filters (the agent among them), a session's
// recent turns, continuing it through the bridge (the console is a channel like Feishu), a new
// session of a picked agent in a directory picked within the allowed roots, and the conversation
// with Allow / Deny / Always allow buttons.
import { api, el, uuid } from './api.js';
import { addMessages, t } from './i18n.js';
import phoneMessages from './phone-i18n.js';
import { showTranscript } from './transcript-view.js';
import { openWorkspace } from './workspace-tabs.js';

addMessages(phoneMessages);

const $ = (id) => document.getElementById(id);
let toast = () => undefined;
let searchTimer = null;
let selected = null;
/** The agents the daemon runs (`GET /api/agents`): the filter, the picker and the tags use them. */
let agents = [];
/** The label of each registry origin (`cli`, `feishu`, `web`). */
const ORIGIN_LABELS = { cli: 'sOriginCli', feishu: 'sOriginFeishu', web: 'sOriginWeb' };

/** Wires the page's controls. */
export function initSessions(showToast) {
  toast = showToast;
  const report = (err) => toast(t('error', { msg: err.message }));
  // Refresh (the form's button): the daemon rescans the session folders first, then the list reloads.
  $('s-filters').addEventListener('submit', (e) => {
    e.preventDefault();
    api('/api/sessions/rescan', { method: 'POST', body: {} })
      .then(() => loadSessions())
      .catch(report);
  });
  $('s-q').addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => loadSessions().catch(report), 250);
  });
  for (const id of ['s-agent', 's-origin', 's-status'])
    $(id).addEventListener('change', () => loadSessions().catch(report));
  $('s-continue').addEventListener('click', () => continueSession().catch(report));
  $('b-form').addEventListener('submit', (e) => {
    e.preventDefault();
    sendMessage().catch(report);
  });
  $('b-input').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      $('b-form').requestSubmit();
    }
  });
  $('b-log').addEventListener('click', (e) => {
    const button = e.target.closest('button[data-button]');
    const message = button && button.closest('[data-id]');
    if (button && message) clickButton(message.dataset.id, Number(button.dataset.button), button).catch(report);
  });
  $('new-form').addEventListener('submit', (e) => {
    e.preventDefault();
    startSession().catch(report);
  });
  $('dir-browse').addEventListener('click', () => browse($('dir-path').value.trim()).catch(report));
  $('dir-roots').addEventListener('click', () => browse('').catch(report));
  $('s-back').addEventListener('click', closeSession);
}

/** Where the list was scrolled when a session opened, to return there on the way back. */
let listScroll = 0;

/** Marks the view as showing one session (on a phone the list gives way to it) and shows its top. */
function markOpen(id) {
  const view = $('view-sessions');
  if (view.getAttribute('data-open-session') === id) return; // a refresh keeps the reading position
  if (!view.hasAttribute('data-open-session')) listScroll = window.scrollY;
  view.setAttribute('data-open-session', id);
  window.scrollTo(0, 0);
}

/** Back to the list (`#s-back`), where it was scrolled. */
function closeSession() {
  selected = null;
  for (const row of $('s-list').querySelectorAll('.session-row.selected')) row.classList.remove('selected');
  $('view-sessions').removeAttribute('data-open-session');
  window.scrollTo(0, listScroll);
}

let changedTimer = null;

/** SSE `sessions.changed`: the registry changed (a session started or moved on); reload the list soon. */
export function onSessionsChanged() {
  clearTimeout(changedTimer);
  changedTimer = setTimeout(() => loadSessions().catch((err) => toast(t('error', { msg: err.message }))), 150);
}

/** (Re)loads the list, the open session and the conversation. */
export async function refreshSessions() {
  await loadAgents();
  await Promise.all([loadSessions(), loadMessages(), browse($('dir-list').dataset.path || '')]);
  if (selected) await openSession(selected);
}

async function loadSessions() {
  const params = new URLSearchParams();
  for (const [key, id] of [
    ['q', 's-q'],
    ['agent', 's-agent'],
    ['origin', 's-origin'],
    ['status', 's-status'],
    ['project', 's-project'],
  ]) {
    const v = $(id).value.trim();
    if (v) params.set(key, v);
  }
  const { sessions } = await api(`/api/sessions?${params}`);
  const list = $('s-list');
  if (sessions.length === 0) return list.replaceChildren(el('li', { class: 'empty', text: t('sEmpty') }));
  // The server lists corrupted, empty and untitled sessions last; a line with their count marks where they start.
  const sparse = sessions.filter((s) => s.sparse).length;
  const rows = sessions.map((s) =>
    el(
      'li',
      {},
      el(
        'button',
        {
          type: 'button',
          class: `session-row${s.sparse ? ' sparse' : ''}${s.id === selected ? ' selected' : ''}`,
          dataset: { id: s.id },
          onclick: () => openSession(s.id).catch((err) => toast(err.message)),
        },
        el('span', { class: 'session-head' }, agentTag(s), el('span', { class: 'session-title', text: s.title })),
        el('span', {
          class: 'session-meta',
          // Another agent's session says whose it is (Claude Code's, the default, does not).
          text: `${s.agent && s.agent !== 'claude' ? `${s.agent} · ` : ''}${s.id.slice(0, 8)} · ${t(ORIGIN_LABELS[s.origin] ?? 'sOriginCli')} · ${t(`status_${s.status}`)} · ${t('sMessages', { n: s.messageCount })} · ${s.project}`,
        }),
        el('span', { class: 'session-time', text: new Date(s.lastActive).toLocaleString() }),
      ),
    ),
  );
  if (sparse > 0)
    rows.splice(sessions.length - sparse, 0, el('li', { class: 'sparse-divider', text: t('sSparse', { n: sparse }) }));
  list.replaceChildren(...rows);
}

async function openSession(id) {
  selected = id;
  openWorkspace(id);
  for (const row of $('s-list').querySelectorAll('.session-row'))
    row.classList.toggle('selected', row.dataset.id === id);
  const { session } = await api(`/api/sessions/${encodeURIComponent(id)}?turns=1`);
  if (selected !== id) return; // the user went back (or on) while it loaded
  $('s-detail').hidden = false;
  markOpen(id);
  $('s-detail-title').replaceChildren(agentTag(session) ?? '', session.title);
  $('s-detail-meta').textContent =
    `${session.id} · ${t('sAgent')}: ${session.agentLabel} · ${t('sCwd')}: ${session.cwd} · ${t(`status_${session.status}`)}`;
  await showTranscript($('s-turns'), id);
}

/** The small tag naming a session's agent; none for Claude Code's sessions (the usual case). */
function agentTag(session) {
  if (session.agent === 'claude') return null;
  return el('span', { class: 'agent-tag', dataset: { agent: session.agent }, text: session.agentLabel });
}

/** Fills the agent filter and the new-session picker, keeping what the user picked while it exists. */
async function loadAgents() {
  ({ agents } = await api('/api/agents'));
  const filter = $('s-agent');
  const chosenFilter = filter.value;
  filter.replaceChildren(filter.options[0], ...agents.map((a) => el('option', { value: a.name, text: a.label })));
  filter.value = agents.some((a) => a.name === chosenFilter) ? chosenFilter : '';
  const picker = $('new-agent');
  const chosen = picker.value;
  picker.replaceChildren(
    ...agents.map((a) =>
      el('option', { value: a.name, text: a.available ? a.label : t('agentNotInstalled', { label: a.label }) }),
    ),
  );
  const fallback = agents.find((a) => a.default) ?? agents[0];
  picker.value = agents.some((a) => a.name === chosen) ? chosen : (fallback?.name ?? '');
}

async function continueSession() {
  if (!selected) return;
  const r = await api(`/api/sessions/${encodeURIComponent(selected)}/continue`, { method: 'POST', body: {} });
  if (r.toast) toast(r.toast.text, r.toast.type);
  $('b-input').focus();
}

/** The conversation with the bridge (persisted server-side, so it survives restarts). */
async function loadMessages() {
  const { messages } = await api('/api/bridge/messages?limit=200');
  const log = $('b-log');
  log.replaceChildren();
  if (messages.length === 0) log.append(el('p', { class: 'empty', text: t('convEmpty') }));
  for (const m of messages) onBridgeMessage(m);
}

/** SSE `bridge.message`: a new or changed message (stream updates included). */
export function onBridgeMessage(m) {
  const log = $('b-log');
  log.querySelector('.empty')?.remove();
  let node = log.querySelector(`[data-id="${CSS.escape(m.id)}"]`);
  if (!node) {
    node = el('div', { dataset: { id: m.id } });
    log.append(node);
  }
  node.className = `msg ${m.kind === 'user' ? 'msg-user' : 'msg-bot'}${m.streaming ? ' streaming' : ''}`;
  if (m.kind === 'user') node.textContent = m.text;
  else node.innerHTML = m.html; // rendered by the server's escaping reply renderer
  node.scrollIntoView({ block: 'nearest' });
}

async function sendMessage() {
  const input = $('b-input');
  const text = input.value.trim();
  if (!text) return;
  input.disabled = true;
  try {
    const r = await api('/api/bridge/messages', { method: 'POST', body: { id: uuid(), text } });
    onBridgeMessage(r.message);
    if (r.result.status === 'refused' && r.result.notice) toast(r.result.notice, 'error');
    input.value = '';
  } finally {
    input.disabled = false;
    input.focus();
  }
}

async function clickButton(messageId, index, button) {
  const group = button.closest('.card-buttons');
  for (const b of group ? group.querySelectorAll('button') : [button]) b.disabled = true;
  try {
    const r = await api('/api/bridge/actions', { method: 'POST', body: { messageId, button: index } });
    if (r.toast) toast(r.toast.text, r.toast.type);
  } catch (err) {
    for (const b of group ? group.querySelectorAll('button') : [button]) b.disabled = false;
    throw err;
  }
}

/** The directory picker: the allowed roots, or one directory's subdirectories (all checked server-side). */
async function browse(path) {
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
          onclick: () => browse(listing.parent).catch((e) => toast(e.message)),
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
          onclick: () => browse(entry.path).catch((e) => toast(e.message)),
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

async function startSession() {
  const dir = $('dir-path').value.trim();
  const prompt = $('new-prompt').value.trim();
  const agent = $('new-agent').value || undefined;
  const error = $('new-error');
  error.hidden = true;
  try {
    const r = await api('/api/sessions/new', { method: 'POST', body: { id: uuid(), dir, prompt, agent } });
    onBridgeMessage(r.message);
    $('new-prompt').value = '';
    $('b-input').focus();
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
  }
}
