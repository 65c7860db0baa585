// The tabs of the session detail: Transcript (#s-transcript: the transcript view's bar and #s-turns) | Changes
// (#s-changes) | Files (#s-files). A tab's content loads when it is chosen; opening another session
// goes back to the transcript. They are toggle buttons (aria-pressed), not role="tab": app.js
// treats every role="tab" as a switch between the page's views. The Changes and Files views are
// imported when first chosen, so they are not part of the page's first load; the tab labels are not.
import { addMessages } from './i18n.js';
import tabLabels from './workspace-i18n.js';

addMessages(tabLabels);

const VIEWS = {
  changes: () => import('./changes-view.js').then((m) => m.renderChanges),
  files: () => import('./files-view.js').then((m) => m.renderFiles),
};

const $ = (id) => document.getElementById(id);
let current = null;

/** The panel of each tab. */
function panels(tab) {
  return { turns: [$('s-transcript')], changes: [$('s-changes')], files: [$('s-files')] }[tab] ?? [];
}

function select(tab) {
  for (const b of document.querySelectorAll('#s-tabs [data-ws-tab]'))
    b.setAttribute('aria-pressed', String(b.dataset.wsTab === tab));
  for (const name of ['turns', 'changes', 'files']) for (const p of panels(name)) if (p) p.hidden = name !== tab;
  const id = current;
  if (!id || !VIEWS[tab]) return;
  VIEWS[tab]()
    .then((render) => current === id && render($(`s-${tab}`), id))
    .catch((err) => console.error(err));
}

/** Called when a session opens in the detail panel; the same session shown again (a list refresh) keeps its tab. */
export function openWorkspace(id) {
  if (id === current) return;
  current = id;
  select('turns');
}

for (const b of document.querySelectorAll('#s-tabs [data-ws-tab]'))
  b.addEventListener('click', () => select(b.dataset.wsTab));
