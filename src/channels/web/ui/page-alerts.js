// Alerts for a user who is looking at another tab: a notification from the bridge (a long turn
// ended, a prompt is waiting) puts a count in the title — "(1) cc-linker" — while the page is
// hidden, cleared when it is shown again, and a browser Notification when the user turned them on.
// Permission is asked only from the "Notify me" button (a user gesture), never on page load.

const PREF = 'ccl-notify';

/**
 * `createPageAlerts({ doc, win, storage })` — the page's `document`, `window` (for
 * `Notification` and `focus`) and `localStorage`, injectable so the logic is testable without a
 * browser.
 */
export function createPageAlerts({ doc = document, win = window, storage = win.localStorage } = {}) {
  const baseTitle = doc.title;
  const seen = new Set();
  let unseen = 0;
  const api = () => win.Notification;
  const pref = () => {
    try {
      return storage.getItem(PREF);
    } catch {
      return null;
    }
  };
  const setPref = (value) => {
    try {
      storage.setItem(PREF, value);
    } catch {
      /* private mode: the choice lasts for this page only */
    }
  };
  doc.addEventListener('visibilitychange', () => {
    if (doc.hidden) return;
    unseen = 0;
    doc.title = baseTitle;
  });

  /** 'on', 'off', 'denied' (blocked for this site) or 'unsupported' (no Notification here). */
  function state() {
    const N = api();
    if (!N) return 'unsupported';
    if (N.permission === 'denied') return 'denied';
    return N.permission === 'granted' && pref() !== 'off' ? 'on' : 'off';
  }

  return {
    state,
    /**
     * One notification from the bridge (`{text, key}`), each key once. Returns false when the page
     * is visible: nothing is raised, the caller shows its own toast.
     */
    notify({ text, key }) {
      if (key) {
        if (seen.has(key)) return true;
        seen.add(key);
      }
      if (!doc.hidden) return false;
      unseen += 1;
      doc.title = `(${unseen}) ${baseTitle}`;
      if (state() === 'on') {
        const N = api();
        const n = new N('cc-linker', { body: text, tag: key });
        n.onclick = () => {
          win.focus();
          n.close();
        };
      }
      return true;
    },
    /** The "Notify me" button: asks for permission the first time, then turns alerts on and off. */
    async toggle() {
      const N = api();
      if (!N) return 'unsupported';
      if (N.permission === 'default') {
        const answer = await N.requestPermission();
        if (answer === 'granted') setPref('on');
        return state();
      }
      if (N.permission === 'granted') setPref(state() === 'on' ? 'off' : 'on');
      return state();
    },
  };
}
