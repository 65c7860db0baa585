// The AI chat page: provider picker, tool badge, streamed assistant text, one ToolCallCard per
// call, cancel, input disabled while a run is active, the chats of this server run, and the audit
// history of tool calls. A run shows its stage at every moment (thinking, a tool called / running /
// done, finalizing), so a wait of several seconds never looks like a hang.
import { api, el } from './api.js';
import { t } from './i18n.js';
import { createToolCard, formatMs, settleToolCards, updateToolCard } from './tool-card.js';

const $ = (id) => document.getElementById(id);
const state = { providers: [], availability: null, chat: null, running: false, phase: null };

/** Wires the page's controls; `toast(text)` shows a message. */
export function initChat(toast) {
  $('chat-form').addEventListener('submit', (e) => {
    e.preventDefault();
    send().catch((err) => toast(t('error', { msg: err.message })));
  });
  $('chat-input').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      $('chat-form').requestSubmit();
    }
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && state.running && !$('view-chat').hidden) {
      e.preventDefault();
      cancel().catch((err) => toast(t('error', { msg: err.message })));
    }
  });
  $('chat-cancel').addEventListener('click', () => cancel().catch((err) => toast(t('error', { msg: err.message }))));
  $('provider').addEventListener('change', () => {
    state.chat = null;
    renderChat();
    loadAvailability().catch((err) => toast(t('error', { msg: err.message })));
  });
  $('model').addEventListener('change', () => {
    state.chat = null;
    renderChat();
    loadAvailability().catch((err) => toast(t('error', { msg: err.message })));
  });
  $('new-chat').addEventListener('click', () => {
    state.chat = null;
    renderChat();
    $('chat-input').focus();
  });
  $('chat-history').addEventListener('change', () => {
    const id = $('chat-history').value;
    if (id) loadChat(id).catch((err) => toast(t('error', { msg: err.message })));
  });
  $('audit').addEventListener('toggle', () => {
    if ($('audit').open) loadAudit().catch((err) => toast(t('error', { msg: err.message })));
  });
  $('audit-refresh').addEventListener('click', () =>
    loadAudit().catch((err) => toast(t('error', { msg: err.message }))),
  );
}

/** (Re)loads providers, availability, the chat list and the open chat (on start and every SSE reconnect). */
export async function refreshChat() {
  const info = await api('/api/chat/providers');
  state.providers = info.providers;
  const select = $('provider');
  const previous = select.value || info.defaultProvider || '';
  select.replaceChildren(...info.providers.map((p) => el('option', { value: p.id, text: `${p.label} · ${p.model}` })));
  if (info.providers.some((p) => p.id === previous)) select.value = previous;
  select.disabled = info.providers.length === 0;
  await loadAvailability();
  await refreshChatList();
  if (state.chat)
    await loadChat(state.chat.id).catch(() => {
      state.chat = null;
      renderChat();
    });
  else renderChat();
  if ($('audit').open) await loadAudit();
}

async function refreshChatList() {
  const { chats } = await api('/api/chats');
  const select = $('chat-history');
  select.replaceChildren(
    el('option', { value: '', text: t('chatHistory') }),
    ...chats.map((c) => el('option', { value: c.id, text: `${c.title || '…'} · ${c.provider.model}` })),
  );
  if (state.chat) select.value = state.chat.id;
}

async function loadChat(id) {
  state.chat = await api(`/api/chats/${encodeURIComponent(id)}`);
  state.running = state.chat.running;
  state.phase = state.chat.phase;
  renderChat();
  await loadAvailability();
}

/** The badge's data for the chosen provider/model (or the open chat's). */
async function loadAvailability() {
  const provider = state.chat ? state.chat.provider.id : $('provider').value;
  const model = state.chat ? state.chat.provider.model : $('model').value.trim();
  const params = new URLSearchParams();
  if (provider) params.set('provider', provider);
  if (model) params.set('model', model);
  state.availability = await api(`/api/chat/availability?${params}`);
  renderBadge();
}

const BADGES = {
  available: ['badge-green', 'badgeAvailable'],
  'no-tools-for-model': ['badge-amber', 'badgeNoTools'],
  'cli-too-old': ['badge-red', 'badgeTooOld'],
  'cli-not-found': ['badge-red', 'badgeNotFound'],
  'cli-broken': ['badge-red', 'badgeBroken'],
  'no-provider': ['badge-grey', 'badgeNoProvider'],
};

/** The tool badge: available / this model has no tools / CLI too old / CLI not found, with the reason. */
function renderBadge() {
  const badge = $('tool-badge');
  const a = state.availability;
  const [cls, key] = (a && BADGES[a.status]) || ['badge-grey', 'badgeUnknown'];
  badge.className = `badge tool-badge ${cls}`;
  badge.dataset.status = a ? a.status : 'unknown';
  badge.textContent = t(key);
  badge.title = a && a.version ? a.version : '';
  const reason = a && a.status !== 'available' ? a.reason : '';
  $('tool-reason').textContent = reason;
  $('tool-reason').hidden = !reason;
}

async function send() {
  const input = $('chat-input');
  const text = input.value.trim();
  if (!text || state.running) return;
  if (!state.chat) {
    const provider = $('provider').value || undefined;
    const model = $('model').value.trim() || undefined;
    state.chat = await api('/api/chats', { method: 'POST', body: { provider, model } });
    renderChat();
    await refreshChatList();
  }
  setRunning(true, 'THINKING');
  try {
    await api(`/api/chats/${encodeURIComponent(state.chat.id)}/send`, { method: 'POST', body: { text } });
    input.value = '';
  } catch (err) {
    setRunning(false, null);
    throw err;
  }
}

async function cancel() {
  if (!state.chat) return;
  await api(`/api/chats/${encodeURIComponent(state.chat.id)}/cancel`, { method: 'POST', body: {} });
}

/** SSE `chat.item`: insert or update one block in place. */
export function onChatItem({ chatId, item }) {
  if (!state.chat || state.chat.id !== chatId) return;
  const at = state.chat.items.findIndex((i) => i.id === item.id);
  if (at >= 0) state.chat.items[at] = item;
  else state.chat.items.push(item);
  upsertItem(item);
  if (item.kind === 'user') refreshChatList().catch(() => undefined);
}

/** SSE `chat.run`: running or not, and the current stage. */
export function onChatRun({ chatId, running, phase }) {
  if (!state.chat || state.chat.id !== chatId) return;
  setRunning(running, phase);
}

function setRunning(running, phase) {
  state.running = running;
  state.phase = phase;
  const input = $('chat-input');
  input.disabled = running;
  $('chat-send').disabled = running;
  $('chat-cancel').hidden = !running;
  $('chat-phase').hidden = !running;
  $('chat-phase-text').textContent = running && phase ? t(`phase${phase}`) : '';
  $('view-chat').dataset.running = running ? 'true' : 'false';
  if (!running && document.activeElement === document.body) input.focus();
}

function renderChat() {
  const log = $('chat-log');
  log.replaceChildren();
  if (!state.chat || state.chat.items.length === 0)
    log.append(el('p', { class: 'empty', text: state.providers.length ? t('noChat') : t('noProviders') }));
  if (state.chat) for (const item of state.chat.items) upsertItem(item);
  setRunning(state.chat ? state.chat.running : false, state.chat ? state.chat.phase : null);
  $('chat-history').value = state.chat ? state.chat.id : '';
}

function upsertItem(item) {
  const log = $('chat-log');
  log.querySelector('.empty')?.remove();
  let node = log.querySelector(`[data-id="${CSS.escape(item.id)}"]`);
  if (!node) {
    node = item.kind === 'tool' ? createToolCard(state.chat.id, item) : el('div', { dataset: { id: item.id } });
    log.append(node);
  }
  if (item.kind === 'tool') updateToolCard(node, item);
  else if (item.kind === 'user') {
    node.className = 'msg msg-user';
    node.textContent = item.text;
  } else if (item.kind === 'assistant') {
    node.className = `msg msg-assistant${item.streaming ? ' streaming' : ''}`;
    node.innerHTML = item.html; // rendered by the server's escaping markdown renderer
  } else if (item.kind === 'notice') {
    node.className = 'msg msg-notice';
    node.textContent = item.text;
  } else if (item.kind === 'end') {
    settleToolCards(log, t(`end${item.state}`));
    node.className = `msg msg-end end-${item.state.toLowerCase()}`;
    node.dataset.state = item.state;
    node.textContent = [
      t(`end${item.state}`),
      item.message,
      item.durationMs !== undefined ? formatMs(item.durationMs) : '',
    ]
      .filter(Boolean)
      .join(' · ');
  }
  node.scrollIntoView({ block: 'nearest' });
}

async function loadAudit() {
  const { records } = await api('/api/audit?limit=50');
  const body = $('audit-rows');
  if (records.length === 0)
    return body.replaceChildren(el('tr', {}, el('td', { colspan: '5', text: t('auditEmpty') })));
  body.replaceChildren(
    ...records.map((r) =>
      el(
        'tr',
        { class: r.decision === 'allowed' ? '' : 'row-refused' },
        el('td', { text: new Date(r.time).toLocaleString() }),
        el('td', {}, el('code', { text: ['cc', r.command, ...r.args].join(' ') })),
        el('td', { text: r.reason ? `${r.decision}: ${r.reason}` : r.decision }),
        el('td', { class: r.exit === 0 ? '' : 'exit-red', text: String(r.exit) }),
        el('td', { text: formatMs(r.durationMs) }),
      ),
    ),
  );
}

/** Re-renders labels after a language switch. */
export function relabelChat() {
  renderBadge();
  renderChat();
  refreshChatList().catch(() => undefined);
}
