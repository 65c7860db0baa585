// The tabs of the session detail: Transcript (#s-turns, owned by the transcript view) | Changes
// (#s-changes) | Files (#s-files). A tab's content loads when it is chosen; opening another session
// goes back to the transcript. They are toggle buttons (aria-pressed), not role="tab": app.js
// treats every role="tab" as a switch between the page's views.
import { renderChanges } from './changes-view.js';
import { renderFiles } from './files-view.js';

const $ = (id) => document.getElementById(id);
let current = null;

/** The panel of each tab: the transcript's turns and its heading, or one of ours. */
function panels(tab) {
  const turns = $('s-turns');
  const heading = turns?.previousElementSibling?.tagName === 'H3' ? turns.previousElementSibling : null;
  return { turns: [turns, heading], changes: [$('s-changes')], files: [$('s-files')] }[tab] ?? [];
}

function select(tab) {
  for (const b of document.querySelectorAll('#s-tabs [data-ws-tab]'))
    b.setAttribute('aria-pressed', String(b.dataset.wsTab === tab));
  for (const name of ['turns', 'changes', 'files']) for (const p of panels(name)) if (p) p.hidden = name !== tab;
  if (!current) return;
  if (tab === 'changes') renderChanges($('s-changes'), current);
  if (tab === 'files') renderFiles($('s-files'), current);
}

/** Called when a session opens in the detail panel; the same session shown again (a list refresh) keeps its tab. */
export function openWorkspace(id) {
  if (id === current) return;
  current = id;
  select('turns');
}

for (const b of document.querySelectorAll('#s-tabs [data-ws-tab]'))
  b.addEventListener('click', () => select(b.dataset.wsTab));
