import type { Language } from '../../core/i18n.js';
import {
  formatRelativeTime,
  projectOf,
  sessionLabel,
  shortId,
  titleOf,
} from '../../sessions/present/format-session.js';
import { sessionsMessages } from '../../sessions/sessions-messages.js';
import type { CardButton, CardSection } from '../reply-model.js';
import { bridgeMessages } from '../bridge-messages.js';
import type { SessionView } from './command-context.js';

/** Relative time, session label, short id, title and project: the same formatting as the terminal. */
export {
  formatRelativeTime as relativeTime,
  projectOf,
  sessionLabel,
  shortId,
  titleOf,
} from '../../sessions/present/format-session.js';

/**
 * One numbered entry of `/list` and `/search`, as a plain section (titles are user text and
 * must be escaped by the channel):
 *
 *     1. Improve README and create acceptance guide
 *     ID: 8c4b1297
 *     终端 | 230条 | 刚刚 | cc-linker
 *
 * A session of another agent than Claude Code names it first (`Codex · 终端 | …`); `agentLabel`
 * is that agent's display name.
 */
export function sessionEntrySection(
  s: SessionView,
  index: number,
  opts: { now: Date; lang: Language; current: boolean; agentLabel?: string },
): CardSection {
  const t = bridgeMessages(opts.lang);
  const label = sessionLabel(s, opts.lang);
  const meta = t('listItemMeta', {
    label: s.agent && s.agent !== 'claude' ? `${opts.agentLabel ?? s.agent} · ${label}` : label,
    count: sessionsMessages(opts.lang)('messages_n', { n: s.message_count }),
    when: formatRelativeTime(s.last_active, opts.now, opts.lang),
    project: projectOf(s),
  });
  const head = `${index}. ${titleOf(s, opts.lang)}${opts.current ? t('listCurrentMark') : ''}`;
  return { type: 'plain', text: `${head}\nID: ${shortId(s.uuid)}\n${meta}` };
}

/** The "切换 N" button of a numbered entry. */
export function switchButton(s: SessionView, index: number, lang: Language): CardButton {
  return { label: bridgeMessages(lang)('switchButton', { index }), action: { type: 'switch', sessionId: s.uuid } };
}

/** Most recently active first; ties by uuid so the numbering is stable. */
export function byLastActive(a: SessionView, b: SessionView): number {
  const d = Date.parse(b.last_active) - Date.parse(a.last_active);
  if (d !== 0 && Number.isFinite(d)) return d;
  return a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0;
}
