// The sessions list, every session reachable: pages of the list load as a sentinel at the bottom
// scrolls into view (IntersectionObserver), a count says how many match, and "Group by project"
// (remembered) shows one expandable group per project whose sessions page the same way.
import { api, el } from './api.js';
import { t } from './i18n.js';

const $ = (id) => document.getElementById(id);
const GROUP_KEY = 'ccl-group-by-project';
/** Rows fetched per page. */
const PAGE = 100;
let generation = 0;

/** Whether the list is grouped by project (the toggle's remembered state). */
export function groupedByProject() {
  try {
    return localStorage.getItem(GROUP_KEY) === '1';
  } catch {
    return false;
  }
}

/** Remembers the toggle. */
export function setGroupedByProject(on) {
  try {
    localStorage.setItem(GROUP_KEY, on ? '1' : '0');
  } catch {
    // storage may be off (private mode): the toggle then lasts until reload
  }
}

/**
 * (Re)loads the list for the filters in `params` (URLSearchParams). `row(session)` builds one
 * list item; `report(err)` shows a failure. A newer call makes an older one's late pages drop.
 */
export async function loadSessionList(params, row, report) {
  const mine = ++generation;
  const list = $('s-list');
  if (groupedByProject()) {
    const { projects } = await api(`/api/sessions/projects?${params}`);
    if (mine !== generation) return;
    const total = projects.reduce((n, p) => n + p.count, 0);
    $('s-count').textContent = t('navCount', { n: total });
    if (projects.length === 0) return list.replaceChildren(el('li', { class: 'empty', text: t('sEmpty') }));
    list.replaceChildren(...projects.map((p) => groupItem(p, params, row, report, mine)));
    return;
  }
  const pager = createPager(list, params, row, report, mine, (page) => {
    $('s-count').textContent = t('navCount', { n: page.total });
  });
  await pager.next();
}

/** One project: a summary with its count; opening it pages in that project's sessions. */
function groupItem(p, params, row, report, mine) {
  const ul = el('ul', { class: 'session-list' });
  const details = el(
    'details',
    { class: 'project-group', dataset: { project: p.project } },
    el(
      'summary',
      {},
      el('span', { class: 'project-name', text: p.project }),
      el('span', { class: 'project-count', text: ` (${p.count})` }),
    ),
    ul,
  );
  let pager = null;
  details.addEventListener('toggle', () => {
    if (!details.open || pager) return;
    const own = new URLSearchParams(params);
    own.set('project', p.project);
    pager = createPager(ul, own, row, report, mine, () => undefined);
    pager.next().catch(report);
  });
  return el('li', { class: 'project-item' }, details);
}

/**
 * Loads pages into `ul`: the first now, each next one when the sentinel (the list's last item)
 * comes into view. The divider before the sparse sessions goes in once, where they start.
 */
function createPager(ul, params, row, report, mine, onPage) {
  let offset = 0;
  let seen = 0;
  let loading = false;
  let dividerShown = false;
  // The old rows stay until the first page is in, so the list never flashes empty.
  let fresh = true;
  const sentinel = el('li', { class: 'list-sentinel', 'aria-hidden': 'true' });
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) pager.next().catch(report);
  });
  const pager = {
    async next() {
      if (loading || offset === null || mine !== generation) return;
      loading = true;
      try {
        const q = new URLSearchParams(params);
        q.set('offset', String(offset));
        q.set('limit', String(PAGE));
        const page = await api(`/api/sessions?${q}`);
        if (mine !== generation) return;
        onPage(page);
        if (fresh) ul.replaceChildren();
        fresh = false;
        sentinel.remove();
        if (page.total === 0) ul.replaceChildren(el('li', { class: 'empty', text: t('sEmpty') }));
        const firstSparse = page.total - page.sparse;
        for (const s of page.sessions) {
          if (!dividerShown && page.sparse > 0 && seen === firstSparse) {
            ul.append(el('li', { class: 'sparse-divider', text: t('sSparse', { n: page.sparse }) }));
            dividerShown = true;
          }
          ul.append(row(s));
          seen += 1;
        }
        offset = page.nextOffset;
        if (offset === null) observer.disconnect();
        else {
          ul.append(sentinel);
          observer.disconnect();
          observer.observe(sentinel);
        }
      } finally {
        loading = false;
      }
    },
  };
  return pager;
}
