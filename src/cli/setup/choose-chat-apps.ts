import type { Config } from '../../core/config-schema.js';
import type { ChatAppSetup } from './chat-app.js';
import { CHAT_APPS } from './chat-apps.js';
import { SETUP_USAGE_EXIT } from './setup-error.js';
import type { SetupFlags } from './setup-answers.js';
import type { SetupSession } from './setup-session.js';

const NONE = ['none', '0', '无', '不用'];

/** Apps named in an answer (`feishu, telegram`, their aliases or numbers, `none`), in registry order; undefined when one is unknown. */
export function parseChatApps(text: string, apps: readonly ChatAppSetup[] = CHAT_APPS): ChatAppSetup[] | undefined {
  const words = text
    .toLowerCase()
    .split(/[\s,，、]+/)
    .filter((w) => w !== '');
  const chosen = new Set<ChatAppSetup>();
  for (const word of words) {
    if (NONE.includes(word)) continue;
    const app = apps.find((a, i) => a.id === word || a.aliases.includes(word) || String(i + 1) === word);
    if (!app) return undefined;
    chosen.add(app);
  }
  return apps.filter((a) => chosen.has(a));
}

/**
 * Which chat apps this run sets up (the others keep their settings, untouched). `--channels`
 * decides when given; otherwise the default is the apps answered by a flag, else by a variable
 * (a variable alone never adds an app to one named by flags), else those the file already sets
 * up, else Feishu — and the wizard asks, showing that default.
 * `--skip-feishu` always leaves Feishu out. None at all is fine: the local console runs alone.
 */
export async function chooseChatApps(
  s: SetupSession,
  flags: SetupFlags,
  config: Config,
  apps: readonly ChatAppSetup[] = CHAT_APPS,
): Promise<ChatAppSetup[]> {
  const skip = (list: ChatAppSetup[]) => (flags.skipFeishu ? list.filter((a) => a.id !== 'feishu') : list);
  const ids = apps.map((a) => a.id).join(', ');
  if (flags.channels !== undefined) {
    const chosen = parseChatApps(flags.channels, apps);
    if (!chosen)
      throw s.error(
        'SETUP_INVALID',
        'invalidAnswer',
        { flag: '--channels', problem: s.t('invalidChatApps', { ids }) },
        SETUP_USAGE_EXIT,
      );
    return skip(chosen);
  }
  let defaults = apps.filter((a) => a.flagged(flags));
  if (defaults.length === 0) defaults = apps.filter((a) => a.env.some((name) => Boolean(s.env[name]?.trim())));
  if (defaults.length === 0) defaults = apps.filter((a) => a.configured(config));
  if (defaults.length === 0) defaults = apps.filter((a) => a.id === 'feishu');
  defaults = skip(defaults);
  if (!s.full) return defaults;
  const list = apps.map((a, i) => `${i + 1}) ${a.id} (${a.label[s.lang]})`).join(', ');
  const chosen = await s.question<ChatAppSetup[]>({
    flag: '--channels',
    current: defaults,
    show: (v) => v.map((a) => a.id).join(', '),
    ask: { text: s.t('askChatApps', { list }) },
    required: false,
    cleared: [],
    parse: async (text) => {
      const value = parseChatApps(text, apps);
      return value ? { value } : { problem: s.t('invalidChatApps', { ids }) };
    },
  });
  return skip(chosen);
}
