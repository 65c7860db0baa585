import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';

// The browser module is plain JavaScript; load it by URL so the type checker does not need its types.
interface PageAlerts {
  state(): string;
  notify(n: { text: string; key: string }): boolean;
  toggle(): Promise<string>;
}
type Create = (deps: { doc: FakeDocument; win: FakeWindow; storage: FakeStorage }) => PageAlerts;
const { createPageAlerts } = (await import(pathToFileURL(path.join(import.meta.dirname, 'page-alerts.js')).href)) as {
  createPageAlerts: Create;
};

class FakeDocument {
  title = 'cc-linker';
  hidden = false;
  private listeners: Array<() => void> = [];
  addEventListener(type: string, fn: () => void): void {
    if (type === 'visibilitychange') this.listeners.push(fn);
  }
  /** The user switches tabs (hidden) or comes back (shown). */
  setHidden(hidden: boolean): void {
    this.hidden = hidden;
    for (const fn of this.listeners) fn();
  }
}

class FakeStorage {
  private readonly data = new Map<string, string>();
  getItem(k: string): string | null {
    return this.data.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.data.set(k, v);
  }
}

/** `Notification` as a browser has it: a permission, a request for it, and every one constructed. */
function fakeNotification(initial: 'default' | 'granted' | 'denied', answer: 'granted' | 'denied' = 'granted') {
  const shown: Array<{ title: string; body: string }> = [];
  let requests = 0;
  class N {
    static permission: string = initial;
    static async requestPermission(): Promise<string> {
      requests += 1;
      N.permission = answer;
      return answer;
    }
    onclick: (() => void) | null = null;
    constructor(title: string, options: { body: string }) {
      shown.push({ title, body: options.body });
    }
    close(): void {}
  }
  return { N, shown, requests: () => requests };
}

interface FakeWindow {
  Notification?: unknown;
  focus(): void;
}

let doc: FakeDocument;
let storage: FakeStorage;
beforeEach(() => {
  doc = new FakeDocument();
  storage = new FakeStorage();
});

describe('page alerts: the title badge', () => {
  it('counts notifications while the page is hidden and clears when it is shown', () => {
    const alerts = createPageAlerts({ doc, win: { focus() {} }, storage });
    doc.setHidden(true);
    expect(alerts.notify({ text: '✅ Done: a (2 min 0 s)', key: 'k1' })).toBe(true);
    expect(doc.title).toBe('(1) cc-linker');
    alerts.notify({ text: '⚠️ Waiting for your approval: Bash: ls', key: 'k2' });
    expect(doc.title).toBe('(2) cc-linker');
    // The same notification again (a reconnect) counts once.
    alerts.notify({ text: '⚠️ Waiting for your approval: Bash: ls', key: 'k2' });
    expect(doc.title).toBe('(2) cc-linker');
    doc.setHidden(false);
    expect(doc.title).toBe('cc-linker');
  });

  it('raises nothing while the page is visible: the caller shows a toast', () => {
    const note = fakeNotification('granted');
    storage.setItem('ccl-notify', 'on');
    const alerts = createPageAlerts({ doc, win: { Notification: note.N, focus() {} }, storage });
    expect(alerts.notify({ text: 'x', key: 'k1' })).toBe(false);
    expect(doc.title).toBe('cc-linker');
    expect(note.shown).toEqual([]);
  });
});

describe('page alerts: browser notifications', () => {
  it('never asks for permission by itself, and shows nothing before it was granted', () => {
    const note = fakeNotification('default');
    const alerts = createPageAlerts({ doc, win: { Notification: note.N, focus() {} }, storage });
    doc.setHidden(true);
    alerts.notify({ text: '✅ Done: a (2 min 0 s)', key: 'k1' });
    expect(note.requests()).toBe(0);
    expect(note.shown).toEqual([]);
    expect(alerts.state()).toBe('off');
  });

  it('asks on the toggle, then shows a Notification for a hidden page', async () => {
    const note = fakeNotification('default', 'granted');
    const alerts = createPageAlerts({ doc, win: { Notification: note.N, focus() {} }, storage });
    expect(await alerts.toggle()).toBe('on');
    expect(note.requests()).toBe(1);
    doc.setHidden(true);
    alerts.notify({ text: '✅ Done: a (2 min 0 s)', key: 'k1' });
    expect(note.shown).toEqual([{ title: 'cc-linker', body: '✅ Done: a (2 min 0 s)' }]);
    // Turned off again: the badge still counts, no Notification.
    expect(await alerts.toggle()).toBe('off');
    alerts.notify({ text: '❌ Failed: b (3 min 0 s)', key: 'k2' });
    expect(note.shown).toHaveLength(1);
    expect(doc.title).toBe('(2) cc-linker');
  });

  it('a refused permission shows nothing and says so', async () => {
    const note = fakeNotification('default', 'denied');
    const alerts = createPageAlerts({ doc, win: { Notification: note.N, focus() {} }, storage });
    expect(await alerts.toggle()).toBe('denied');
    doc.setHidden(true);
    alerts.notify({ text: 'x', key: 'k1' });
    expect(note.shown).toEqual([]);
    expect(await alerts.toggle()).toBe('denied');
    expect(note.requests()).toBe(1);
  });

  it('a browser without Notification keeps the badge', async () => {
    const alerts = createPageAlerts({ doc, win: { focus() {} }, storage });
    expect(await alerts.toggle()).toBe('unsupported');
    doc.setHidden(true);
    alerts.notify({ text: 'x', key: 'k1' });
    expect(doc.title).toBe('(1) cc-linker');
  });
});
