// The ToolCallCard: created once per call and updated in place through
// TOOL_CALLED → TOOL_RUNNING → TOOL_DONE, so it never jumps or reflows. All model-supplied text
// (the command line, output, reasons) is set with textContent.
import { api, el } from './api.js';
import { addMessages, t } from './i18n.js';
import toolCardMessages from './tool-card-i18n.js';

addMessages(toolCardMessages);

const timers = new WeakMap();

/** Builds an empty card for `item` (call `updateToolCard` to fill it). */
export function createToolCard(chatId, item) {
  const title = el('code', { class: 'tool-title' });
  const status = el('span', { class: 'tool-status' });
  const exit = el('span', { class: 'badge tool-exit', hidden: true });
  const duration = el('span', { class: 'tool-duration', hidden: true });
  const reason = el('p', { class: 'tool-reason', hidden: true });
  const preview = el('pre', { class: 'tool-preview', hidden: true });
  const full = el('div', { class: 'tool-full', hidden: true });
  const expand = el('button', {
    type: 'button',
    class: 'btn btn-link tool-expand',
    hidden: true,
    'aria-expanded': 'false',
  });
  const card = el(
    'article',
    { class: 'tool-card', dataset: { id: item.id }, 'aria-live': 'polite' },
    el(
      'header',
      { class: 'tool-head' },
      el('span', { class: 'tool-icon', 'aria-hidden': 'true', text: '⚙' }),
      title,
      status,
      exit,
      duration,
    ),
    reason,
    preview,
    expand,
    full,
  );
  expand.addEventListener('click', () => toggle(chatId, card, expand, full));
  return card;
}

/** Applies the item's current state to its card. */
export function updateToolCard(card, item) {
  const q = (sel) => card.querySelector(sel);
  q('.tool-title').textContent = item.commandLine;
  card.dataset.state = item.state;
  const refused = item.state === 'TOOL_DONE' && ['denied', 'invalid', 'unknown-tool'].includes(item.decision);
  // exit -1 is no exit code: the CLI was stopped (cancelled, timed out) or never started.
  const noExit = item.state === 'TOOL_DONE' && !refused && item.exitCode === -1;
  const stopped = item.state === 'TOOL_DONE' && !refused ? item.stopped : undefined;
  const failed = item.state === 'TOOL_DONE' && item.exitCode !== 0;
  card.classList.toggle('tool-refused', refused);
  card.classList.toggle('tool-stopped', Boolean(stopped));
  card.classList.toggle('tool-failed', failed && !refused && !stopped);
  card.classList.toggle('tool-running', item.state === 'TOOL_RUNNING');
  const status = q('.tool-status');
  stopTimer(card);
  if (item.state === 'TOOL_CALLED') status.textContent = t('toolCalled');
  if (item.state === 'TOOL_RUNNING') startTimer(card, status, item.elapsedMs || 0, item.timeoutMs);
  if (item.state === 'TOOL_DONE') {
    status.textContent = doneLabel(item, refused, stopped, noExit);
    const exit = q('.tool-exit');
    exit.hidden = noExit;
    exit.textContent = noExit ? '' : t('toolExitCode', { code: item.exitCode });
    exit.classList.toggle('badge-red', item.exitCode !== 0);
    exit.classList.toggle('badge-green', item.exitCode === 0);
    const duration = q('.tool-duration');
    duration.hidden = refused;
    duration.textContent = formatMs(item.durationMs || 0);
    const reason = q('.tool-reason');
    // A stopped call's reason ("cancelled", "timed out after …") only repeats its status label.
    const why = stopped ? '' : item.reason || '';
    reason.hidden = !why;
    reason.textContent = !why
      ? ''
      : refused
        ? t('toolReason', { label: t(`decision_${item.decision}`), reason: why })
        : t('toolReasonAlone', { reason: why });
    const preview = q('.tool-preview');
    // A stopped call's output ends with its machine reason, which repeats the status label: cut.
    const shown = stopped && item.reason ? withoutLastLine(item.preview || '', item.reason) : item.preview || '';
    preview.hidden = refused || !shown;
    preview.textContent = shown;
    q('.tool-expand').hidden = refused || !item.expandable;
    if (!q('.tool-expand').hidden) q('.tool-expand').textContent = t('toolExpand');
  }
}

/** `text` without a last line equal to `line` (and the blank lines before it). */
function withoutLastLine(text, line) {
  const lines = text.replace(/\s+$/, '').split('\n');
  if (lines[lines.length - 1].trim() === line) lines.pop();
  return lines.join('\n').replace(/\s+$/, '');
}

/** What a finished card says: refused, cancelled, timed out, did not run, another decision, or done. */
function doneLabel(item, refused, stopped, noExit) {
  if (refused) return t('toolDenied');
  if (stopped === 'cancelled') return t('toolCancelled');
  if (stopped === 'timeout') return t('toolTimedOut');
  if (noExit) return t('toolNotRun');
  if (item.decision && item.decision !== 'allowed') return t(`decision_${item.decision}`);
  return t('toolDone');
}

/** A run ended while a card still ran (the gateway always sends TOOL_DONE first; this is the safety net): stop its timer. */
export function settleToolCards(root, label) {
  for (const card of root.querySelectorAll('.tool-card.tool-running')) {
    stopTimer(card);
    card.classList.remove('tool-running');
    card.querySelector('.tool-status').textContent = label;
  }
}

function startTimer(card, status, elapsedMs, timeoutMs) {
  const origin = performance.now() - elapsedMs;
  const tick = () => {
    const ms = performance.now() - origin;
    status.textContent = `${t('toolRunning')} ${(ms / 1000).toFixed(1)}s${timeoutMs ? ` / ${Math.round(timeoutMs / 1000)}s` : ''}`;
  };
  tick();
  timers.set(card, setInterval(tick, 100));
}

function stopTimer(card) {
  const id = timers.get(card);
  if (id) clearInterval(id);
  timers.delete(card);
}

async function toggle(chatId, card, button, full) {
  const open = button.getAttribute('aria-expanded') === 'true';
  const preview = card.querySelector('.tool-preview');
  if (open) {
    full.hidden = true;
    preview.hidden = !preview.textContent;
    button.setAttribute('aria-expanded', 'false');
    button.textContent = t('toolExpand');
    return;
  }
  if (!full.dataset.loaded) {
    const out = await api(`/api/chats/${encodeURIComponent(chatId)}/tools/${encodeURIComponent(card.dataset.id)}`);
    full.replaceChildren(el('pre', { class: 'tool-stdout', text: out.stdout || t('toolNoOutput') }));
    if (out.stderr)
      full.append(
        el('p', { class: 'tool-stderr-label', text: t('toolStderr') }),
        el('pre', { class: 'tool-stderr', text: out.stderr }),
      );
    full.dataset.loaded = '1';
  }
  full.hidden = false;
  preview.hidden = true;
  button.setAttribute('aria-expanded', 'true');
  button.textContent = t('toolCollapse');
}

/** `234 ms` / `1.2 s`. */
export function formatMs(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
