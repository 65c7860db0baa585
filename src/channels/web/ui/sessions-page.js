// The sessions pages: the registry with search and filters (the agent among them), paged and
// optionally grouped by project (session-list.js); one session's view at `#/sessions/<id>` with
// its recent turns, its live turns and a composer that sends only to it (through the bridge: the
// console is a channel like Feishu); a new session of a picked agent in a directory picked within
// the allowed roots; and the Activity panel for what belongs to no session (command replies).
import { api, el, uuid } from './api.js';
import { addMessages, t } from './i18n.js';
import { navMessages } from './nav-i18n.js';
import { browse } from './dir-picker.js';
import { createLiveStore, renderMessage } from './session-live.js';
import { loadSessionList, groupedByProject, setGroupedByProject } from './session-list.js';
import { openWorkspace } from './workspace-tabs.js';

addMessages(navMessages);

const $ = (id) => document.getElementById(id);
let toast = () => undefined;
let searchTimer = null;
/** The open session's id (`#/sessions/<id>`), or null on the list. */
let selected = null;
/** The newest transcript turn shown for the open session (ISO): live messages after it show below. */
let turnsUntil = null;
/** Live messages by session; replies still streaming, to re-read the transcript once they finish. */
const live = createLiveStore();
const streaming = new Set();
/**
 * The last submitted "New session": the page's uuid and the session its reply named so far (a
 * planned id first; an agent that picks its own id reports the real one later, and the view follows).
 */
let pendingNew = null;
/** The agents the daemon runs (`GET /api/agents`): the filter, the picker and the tags use them. */
let agents = [];
/** The session composer's attachments (attach-files.js, loaded after start-up); null until then. */
let attach = null;
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
  $('s-group').checked = groupedByProject();
  $('s-group').addEventListener('change', () => {
    setGroupedByProject($('s-group').checked);
    loadSessions().catch(report);
  });
  $('s-back').addEventListener('click', () => {
    location.hash = '#/sessions';
  });
  $('a-form').addEventListener('submit', (e) => {
    e.preventDefault();
    sendCommand().catch(report);
  });
  $('b-form').addEventListener('submit', (e) => {
    e.preventDefault();
    sendMessage().catch(report);
  });
  // The microphone (loaded apart: most pages never record).
  import('./voice-recorder.js')
    .then((m) => m.initVoice({ form: $('b-form'), session: () => selected, sent: showSent, toast, newId: uuid }))
    .catch(report);
  $('b-input').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      $('b-form').requestSubmit();
    }
  });
  for (const log of ['b-log', 's-live'])
    $(log).addEventListener('click', (e) => {
      const button = e.target.closest('button[data-button]');
      const message = button && button.closest('[data-id]');
      if (button && message) clickButton(message.dataset.id, Number(button.dataset.button), button).catch(report);
    });
  $('new-form').addEventListener('submit', (e) => {
    e.preventDefault();
    startSession().catch(report);
  });
  $('dir-browse').addEventListener('click', () => browse($('dir-path').value.trim(), toast).catch(report));
  $('dir-roots').addEventListener('click', () => browse('', toast).catch(report));
  import('./attach-files.js')
    .then((m) => (attach = m.initAttach({ form: $('b-form'), input: $('b-input'), dropZone: $('s-detail') })))
    .catch(report);
}

let changedTimer = null;

/** SSE `sessions.changed`: the registry changed (a session started or moved on); reload the list soon. */
export function onSessionsChanged() {
  clearTimeout(changedTimer);
  changedTimer = setTimeout(() => {
    const report = (err) => toast(t('error', { msg: err.message }));
    loadSessions().catch(report);
    // A session opened before the registry knew it (a new one) shows once it is listed; an open
    // one that grew elsewhere (a terminal) shows its new turns. While a reply of ours streams, its
    // end re-reads the session instead.
    if (selected && (!$('s-missing').hidden || !live.of(selected, null).some((m) => m.streaming)))
      openSession(selected).catch(report);
  }, 150);
}

/** (Re)loads the list, the open session and the conversation. */
export async function refreshSessions() {
  await loadAgents();
  await Promise.all([loadSessions(), loadMessages(), browse($('dir-list').dataset.path || '', toast)]);
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
  await loadSessionList(params, sessionRow, (err) => toast(t('error', { msg: err.message })));
}

/** One list row; a click opens the session at `#/sessions/<id>` (Back returns to the list). */
function sessionRow(s) {
  return el(
    'li',
    {},
    el(
      'button',
      {
        type: 'button',
        class: `session-row${s.sparse ? ' sparse' : ''}${s.id === selected ? ' selected' : ''}`,
        dataset: { id: s.id },
        onclick: () => openSession(s.id, { push: true }).catch((err) => toast(err.message)),
      },
      el('span', { class: 'session-head' }, agentTag(s), el('span', { class: 'session-title', text: s.title })),
      el('span', {
        class: 'session-meta',
        // Another agent's session says whose it is (Claude Code's, the default, does not).
        text: `${s.agent && s.agent !== 'claude' ? `${s.agent} · ` : ''}${s.id.slice(0, 8)} · ${t(ORIGIN_LABELS[s.origin] ?? 'sOriginCli')} · ${t(`status_${s.status}`)} · ${t('sMessages', { n: s.messageCount })} · ${s.project}`,
      }),
      el('span', { class: 'session-time', text: new Date(s.lastActive).toLocaleString() }),
    ),
  );
}

/** The route chose a session (`#/sessions/<id>`) or the list (`null`): app.js calls this on load and Back/Forward. */
export function routeSessions(id) {
  if (id) return openSession(id).catch((err) => toast(t('error', { msg: err.message })));
  closeSession();
}

/** The open session's id, or null. */
export function openSessionId() {
  return selected;
}

/** Where the list was scrolled when a session opened, to return there on the way back (a phone shows one at a time). */
let listScroll = 0;

function closeSession() {
  selected = null;
  const wasOpen = $('view-sessions').hasAttribute('data-open-session');
  $('view-sessions').removeAttribute('data-open-session');
  if (wasOpen) requestAnimationFrame(() => window.scrollTo(0, listScroll));
  $('s-detail').hidden = true;
  for (const row of $('s-list').querySelectorAll('.session-row.selected')) row.classList.remove('selected');
}

/**
 * Opens session `id`'s view: `push` (a click in the list) adds `#/sessions/<id>` to the history.
 * `retries`: a session just created may reach the registry a moment after its id is known.
 */
async function openSession(id, { push = false, retries = 0 } = {}) {
  const hash = `#/sessions/${encodeURIComponent(id)}`;
  if (push && location.hash !== hash) history.pushState(null, '', hash);
  const switched = selected !== id;
  selected = id;
  if (!$('view-sessions').hasAttribute('data-open-session')) listScroll = window.scrollY;
  $('view-sessions').setAttribute('data-open-session', id);
  for (const row of $('s-list').querySelectorAll('.session-row'))
    row.classList.toggle('selected', row.dataset.id === id);
  $('s-detail').hidden = false;
  if (switched) {
    $('s-live').replaceChildren();
    window.scrollTo(0, 0); // a phone shows the open session from its top, not where the list was
  }
  openWorkspace(id);
  let data;
  try {
    // The session and its newest turn (the live messages after it show under the transcript).
    data = await api(`/api/sessions/${encodeURIComponent(id)}?turns=1`);
  } catch (err) {
    if (err.status !== 404 || selected !== id) throw err;
    if (retries > 0) {
      await new Promise((r) => setTimeout(r, 500));
      return selected === id ? openSession(id, { retries: retries - 1 }) : undefined;
    }
    // A new session's live reply stays in view while the registry has not caught up yet.
    $('s-open').hidden = live.of(id, null).length === 0;
    $('s-missing').textContent = t('navUnknown', { id });
    $('s-missing').hidden = false;
    return;
  }
  if (selected !== id) return;
  const { session, turns } = data;
  $('s-missing').hidden = true;
  $('s-open').hidden = false;
  $('s-detail-title').replaceChildren(agentTag(session) ?? '', session.title);
  $('s-detail-meta').textContent =
    `${session.id} · ${t('sAgent')}: ${session.agentLabel} · ${t('sCwd')}: ${session.cwd} · ${t(`status_${session.status}`)}`;
  $('s-target').textContent = t('navTo', { title: session.title, dir: session.cwd, agent: session.agentLabel });
  turnsUntil = turns.reduce(
    (max, turn) => (turn.timestamp && turn.timestamp > (max ?? '') ? turn.timestamp : max),
    null,
  );
  showLive(id, !switched);
  // The same session again (a finished turn, a reconnect): only what is new, nothing jumps.
  // The transcript view loads with the first open session, not with the page.
  const view = await import('./transcript-view.js');
  if (selected !== id) return;
  await (switched ? view.showTranscript : view.appendNewer)($('s-turns'), id);
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

/** The bridge's messages (persisted server-side, so they survive restarts), each where it belongs. */
async function loadMessages() {
  const { messages } = await api('/api/bridge/messages?limit=200');
  const log = $('b-log');
  log.replaceChildren();
  if (!messages.some((m) => !m.sessionId)) log.append(el('p', { class: 'empty', text: t('navActivityEmpty') }));
  for (const m of messages) onBridgeMessage(m);
}

/**
 * The open session's live messages newer than its transcript, under it. While the same session
 * stays open (`keep`), a message already shown stays: the agent may write the answer into its file
 * after the reply finished, so the transcript re-read then can lack it.
 */
function showLive(id, keep) {
  const box = $('s-live');
  const shown = live.of(id, turnsUntil);
  if (!keep)
    for (const node of box.querySelectorAll('[data-id]'))
      if (!shown.some((m) => m.id === node.dataset.id)) node.remove();
  for (const m of shown) renderMessage(box, m);
}

/**
 * SSE `bridge.message`: a new or changed message (stream updates included). A session's message
 * goes to that session's view (shown when it is the open one); one of no session to Activity. A
 * finished reply of the open session re-reads its transcript.
 */
export function onBridgeMessage(m) {
  if (pendingNew && m.replyTo === pendingNew.uuid && m.sessionId && m.sessionId !== pendingNew.opened) {
    const first = pendingNew.opened === null;
    if (first || selected === pendingNew.opened) {
      if (!first) history.replaceState(null, '', `#/sessions/${encodeURIComponent(m.sessionId)}`);
      openSession(m.sessionId, { push: first, retries: 10 }).catch((err) => toast(err.message));
    }
    pendingNew.opened = m.sessionId;
  }
  if (!m.sessionId) return renderMessage($('b-log'), m);
  live.put(m);
  const finished = !m.streaming && streaming.delete(m.id);
  if (m.streaming) streaming.add(m.id);
  if (m.sessionId !== selected) return;
  $('s-open').hidden = false; // a new session's reply, before the registry lists it
  renderMessage($('s-live'), m);
  if (finished) openSession(m.sessionId).catch((err) => toast(err.message));
}

async function sendMessage() {
  if (!selected) return;
  const to = selected;
  const files = attach ? attach.ids() : [];
  const post = (id, text) =>
    api(`/api/sessions/${encodeURIComponent(to)}/messages`, { method: 'POST', body: { id, text, files } });
  if (await submitText($('b-input'), post, () => true, files.length > 0)) attach?.clear();
}

/** Shows a message the server took from this page (its answer `r`), and a refusal's notice. */
function showSent(r) {
  onBridgeMessage(r.message);
  if (r.result.status === 'refused' && r.result.notice) toast(r.result.notice, 'error');
}

/**
 * Sends what `input` holds with `post(id, text)` (empty text only `withFiles`), shows the message,
 * and empties the box once taken; true when it was.
 */
async function submitText(input, post, check = () => true, withFiles = false) {
  const text = input.value.trim();
  if ((!text && !withFiles) || !check(text)) return false;
  input.disabled = true;
  try {
    const id = uuid();
    if (/^\/new(\s|$)/.test(text)) pendingNew = { uuid: id, opened: null };
    showSent(await post(id, text));
    input.value = '';
    return true;
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

/**
 * The Activity panel's command box: chat commands (`/new`, `/list`, `/help`…) with no session open.
 * Plain text is refused here, so a message never goes to a session the page does not name. A
 * `/new` opens its session once its reply names it, like the New session form.
 */
async function sendCommand() {
  const commandOnly = (text) => text.startsWith('/') || (toast(t('navCommandOnly'), 'error'), false);
  await submitText(
    $('a-input'),
    (id, text) => api('/api/bridge/messages', { method: 'POST', body: { id, text } }),
    commandOnly,
  );
}

async function startSession() {
  const dir = $('dir-path').value.trim();
  const prompt = $('new-prompt').value.trim();
  const agent = $('new-agent').value || undefined;
  const error = $('new-error');
  error.hidden = true;
  try {
    const id = uuid();
    pendingNew = { uuid: id, opened: null };
    const r = await api('/api/sessions/new', { method: 'POST', body: { id, dir, prompt, agent } });
    onBridgeMessage(r.message);
    $('new-prompt').value = '';
    toast(t('navOpening'));
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
  }
}
