// The status view: queue depth, running engines, channel connections (Feishu or not), the CLI.
import { api, el } from './api.js';
import { t } from './i18n.js';

let last = null;

/** Loads the status once (SSE `status` events keep it current afterwards). */
export async function refreshStatus() {
  renderStatus(await api('/api/status'));
}

/**
 * Renders `{bridge, cli, model}`. The CLI's dot is red only when the CLI itself cannot run (with its
 * error and what to do); a chat model without tools is a neutral grey line of its own, with why.
 */
export function renderStatus(status) {
  last = status;
  renderStopping(status.bridge);
  const box = document.getElementById('status-body');
  const parts = [];
  const b = status.bridge;
  if (!b) parts.push(el('p', { class: 'empty', text: t('stNoBridge') }));
  else {
    const stat = (key, value) =>
      el(
        'div',
        { class: 'stat', dataset: { key } },
        el('span', { class: 'stat-value', text: String(value) }),
        el('span', { class: 'stat-label', text: t(key) }),
      );
    parts.push(
      el('h2', { text: t('stQueue') }),
      el(
        'div',
        { class: 'stats' },
        stat('stPending', b.pending),
        stat('stProcessing', b.processing),
        stat('stRunning', b.running),
        stat('stPrompts', b.pendingPrompts),
        stat('stFailed', b.failed),
      ),
      el('h2', { text: t('stChannels') }),
      el(
        'ul',
        { class: 'channels' },
        ...b.channels.map((c) =>
          el(
            'li',
            { dataset: { channel: c.id } },
            el('span', { class: `dot ${c.connected ? 'dot-green' : 'dot-red'}`, 'aria-hidden': 'true' }),
            el('strong', { text: c.id }),
            ` ${c.connected ? t('stConnected') : t('stDisconnected')}${c.detail ? ` — ${c.detail}` : ''}`,
          ),
        ),
      ),
    );
  }
  if (status.cli) {
    const ok = status.cli.status === 'available';
    parts.push(
      el('h2', { text: t('stCli') }),
      el(
        'p',
        { class: 'cli-status', dataset: { status: status.cli.status } },
        el('span', { class: `dot ${ok ? 'dot-green' : 'dot-red'}`, 'aria-hidden': 'true' }),
        ` ${status.cli.reason || status.cli.status}`,
      ),
    );
  }
  const model = status.model;
  if (model && (model.status === 'no-tools-for-model' || model.status === 'no-provider')) {
    parts.push(
      el('h2', { text: t('stModel') }),
      el(
        'p',
        { class: 'model-status', dataset: { status: model.status, ...(model.why ? { why: model.why } : {}) } },
        el('span', { class: 'dot dot-grey', 'aria-hidden': 'true' }),
        ` ${model.reason || model.status}`,
      ),
    );
  }
  box.replaceChildren(...parts);
}

/** Re-renders after a language switch. */
export function relabelStatus() {
  if (last) renderStatus(last);
}

/** The banner while cc-linker stops: no new messages; running turns have until the deadline, the rest resume after the next start. */
function renderStopping(bridge) {
  const banner = document.getElementById('stopping');
  if (!banner) return;
  banner.hidden = !bridge?.stopping;
  if (!bridge?.stopping) return;
  const until = bridge.stopDeadline ? new Date(bridge.stopDeadline).toLocaleTimeString() : '';
  banner.textContent = until ? t('stoppingUntil', { time: until }) : t('stopping');
}
