// The session detail's Changes tab: the directory's git branch and status, then per turn (newest
// first) the files the agent changed, each with its unified diff collapsed (lines coloured as added,
// removed, hunk header). Data: GET /api/sessions/:id/changes.
import { api, el } from './api.js';
import { addMessages, t } from './i18n.js';
import messages from './changes-i18n.js';

addMessages(messages);

/** Loads and shows the changes of session `id` into `box`. */
export async function renderChanges(box, id) {
  box.replaceChildren(el('p', { class: 'empty', text: t('chLoading') }));
  let data;
  try {
    data = await api(`/api/sessions/${encodeURIComponent(id)}/changes`);
  } catch (err) {
    box.replaceChildren(el('p', { class: 'ws-error', role: 'alert', text: err.message }));
    return;
  }
  const turns =
    data.turns.length === 0
      ? [el('p', { class: 'empty', text: t('chNoTurns') })]
      : data.turns.map((turn) => turnBlock(turn));
  box.replaceChildren(gitLine(data.git), ...turns);
}

function gitLine(git) {
  if (!git) return el('p', { class: 'ws-git ws-git-none', text: t('chNoGit') });
  const parts = [
    el('strong', { class: 'ws-branch', text: git.detached ? t('chDetached') : (git.branch ?? '') }),
    el('span', {
      text: git.upstream ? `${git.upstream} · ${t('chAheadBehind', git)}` : t('chNoUpstream'),
    }),
    el('span', {
      text: git.files.length + git.more > 0 ? t('chChangedNow', { n: git.files.length + git.more }) : t('chClean'),
    }),
  ];
  return el('p', { class: 'ws-git' }, ...parts.flatMap((p, i) => (i ? [' · ', p] : [p])));
}

function turnBlock(turn) {
  const when = turn.timestamp ? new Date(turn.timestamp).toLocaleString() : '';
  return el(
    'section',
    { class: 'ws-turn', dataset: { index: String(turn.index) } },
    el(
      'h4',
      {},
      el('span', { class: 'ws-turn-n', text: t('chTurn', { n: turn.index + 1 }) }),
      ' ',
      el('span', { class: 'ws-turn-prompt', text: turn.prompt || t('chNoPrompt') }),
      when ? el('span', { class: 'ws-turn-time', text: when }) : null,
    ),
    el('ul', { class: 'ws-files' }, ...turn.files.map((f) => el('li', {}, fileBlock(f)))),
  );
}

function fileBlock(f) {
  return el(
    'details',
    { class: 'ws-file', dataset: { path: f.path, source: f.source } },
    el(
      'summary',
      {},
      el('code', { class: 'ws-path', text: f.path }),
      el('span', { class: `ws-tag ws-tag-${f.change}`, text: t(`change_${f.change}`) }),
      el('span', { class: 'ws-source', text: t(f.source === 'git' ? 'chSourceGit' : 'chSourceTranscript') }),
    ),
    diffBlock(f.diff),
    f.truncated ? el('p', { class: 'meta', text: t('chTruncated') }) : null,
  );
}

/** A unified diff as one `<pre>`, a span per line with its kind as class. */
export function diffBlock(text) {
  const lines = text.replace(/\n$/, '').split('\n');
  return el(
    'pre',
    { class: 'diff' },
    ...lines.map((line) => el('span', { class: `diff-line ${lineClass(line)}`, text: `${line}\n` })),
  );
}

function lineClass(line) {
  if (line.startsWith('+++') || line.startsWith('---') || /^(diff |index |=+$|new file|deleted file)/.test(line))
    return 'diff-meta';
  if (line.startsWith('@@')) return 'diff-hunk';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-del';
  return 'diff-ctx';
}
