// Start-up: tabs, language, the event stream, toasts. Plain ES modules, no framework, nothing
// from the network.
import { api, openEvents } from './api.js';
import { initChat, onChatItem, onChatRun, refreshChat, relabelChat } from './chat-page.js';
import { adoptDefaultLang, applyI18n, currentLang, setLang, t } from './i18n.js';
import { createPageAlerts } from './page-alerts.js';
import {
  initSessions,
  onBridgeMessage,
  onSessionsChanged,
  openSessionId,
  refreshSessions,
  routeSessions,
} from './sessions-page.js';
import { refreshStatus, relabelStatus, renderStatus } from './status-page.js';

const $ = (id) => document.getElementById(id);
let toastTimer = null;

function toast(text, type = 'info') {
  const box = $('toast');
  box.textContent = text;
  box.dataset.type = type;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), 5000);
}

function showView(name, focus = false) {
  for (const tab of document.querySelectorAll('[role="tab"]')) {
    const on = tab.dataset.view === name;
    tab.setAttribute('aria-selected', on ? 'true' : 'false');
    tab.tabIndex = on ? 0 : -1;
    if (on && focus) tab.focus();
  }
  for (const view of document.querySelectorAll('main > section')) view.hidden = view.id !== `view-${name}`;
  const open = name === 'sessions' ? openSessionId() : null;
  const hash = open ? `#/sessions/${encodeURIComponent(open)}` : `#/${name}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

/** The view (and session) an address names: `#/chat`, `#/sessions`, `#/sessions/<id>`, `#/status`; old `#chat` too. */
function routeOf(hash) {
  const m = /^#\/?(chat|sessions|status)(?:\/([^/]+))?\/?$/.exec(hash);
  return m ? { view: m[1], id: m[2] ? decodeURIComponent(m[2]) : null } : { view: 'chat', id: null };
}

/** Shows what the address names: on load and on Back / Forward. */
function applyRoute() {
  const route = routeOf(location.hash);
  if (route.view === 'sessions') routeSessions(route.id);
  showView(route.view);
}

function initTabs() {
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  for (const tab of tabs) {
    tab.addEventListener('click', () => showView(tab.dataset.view));
    tab.addEventListener('keydown', (e) => {
      const i = tabs.indexOf(tab);
      const next =
        e.key === 'ArrowRight'
          ? tabs[(i + 1) % tabs.length]
          : e.key === 'ArrowLeft'
            ? tabs[(i + tabs.length - 1) % tabs.length]
            : null;
      if (next) {
        e.preventDefault();
        showView(next.dataset.view, true);
      }
    });
  }
  window.addEventListener('hashchange', applyRoute);
}

function initLang() {
  const relabel = () => {
    relabelChat();
    relabelStatus();
    refreshSessions().catch(() => undefined);
  };
  $('lang-toggle').addEventListener('click', () => {
    setLang(currentLang() === 'zh' ? 'en' : 'zh');
    relabel();
  });
  applyI18n(document);
  // general.language is the default; the toggle's saved choice overrides it (i18n.js pickLanguage).
  api('/api/settings')
    .then((s) => adoptDefaultLang(s.language) && relabel())
    .catch(() => undefined);
}

/** Log out: the server ends this login and clears the cookie; the page then shows the login form. */
function initLogout(events) {
  $('logout').addEventListener('click', async () => {
    try {
      await api('/api/logout', { method: 'POST' });
    } catch (err) {
      toast(t('logoutFailed', { msg: err.message }), 'error');
      return;
    }
    events.close();
    location.replace('/');
  });
}

/** The "Notify me" button: the only place the page asks for the Notification permission. */
function initNotify(alerts) {
  const button = $('notify-toggle');
  const show = (state) => {
    button.dataset.i18n = state === 'on' ? 'notifyOn' : 'notifyOff';
    button.textContent = t(button.dataset.i18n);
    button.setAttribute('aria-pressed', state === 'on' ? 'true' : 'false');
  };
  show(alerts.state());
  button.addEventListener('click', async () => {
    const state = await alerts.toggle();
    show(state);
    if (state === 'denied') toast(t('notifyDenied'), 'error');
    if (state === 'unsupported') toast(t('notifyUnsupported'), 'error');
  });
}

async function refreshAll() {
  const results = await Promise.allSettled([refreshChat(), refreshSessions(), refreshStatus()]);
  for (const r of results) if (r.status === 'rejected') toast(t('error', { msg: r.reason.message }), 'error');
}

initLang();
initTabs();
initChat(toast);
initSessions(toast);
applyRoute();
const alerts = createPageAlerts();
initNotify(alerts);
const events = openEvents(
  {
    'chat.item': onChatItem,
    'chat.run': onChatRun,
    'bridge.message': onBridgeMessage,
    'sessions.changed': onSessionsChanged,
    // A visible page gets a toast; a hidden one a title count and, when turned on, a Notification.
    'bridge.notify': (n) => (alerts.notify(n) ? undefined : toast(n.text)),
    status: renderStatus,
  },
  () => {
    $('offline').hidden = true;
    refreshAll();
  },
  () => ($('offline').hidden = false),
);
initLogout(events);
// The shell's service worker (sw.js: the page's own files only, never the API). Browsers offer it
// only on https or localhost; elsewhere the console simply runs without it.
navigator.serviceWorker?.register('/assets/sw.js', { scope: '/' }).catch(() => undefined);
