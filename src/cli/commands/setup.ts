import { redact } from '../../core/redact.js';
import type { CommandSpec } from './command-spec.js';
import type { SetupFlags } from '../setup/setup-answers.js';
import { CHAT_APPS } from '../setup/chat-apps.js';

/** The parsed options: `SetupFlags`, except that the two switches are absent when not given. */
type SetupOptions = Omit<SetupFlags, 'yes' | 'skipFeishu' | 'chatFlags'> &
  Partial<Pick<SetupFlags, 'yes' | 'skipFeishu'>> &
  Record<string, string | boolean | undefined>;

const APP_OPTIONS = CHAT_APPS.flatMap((app) => app.options);

/**
 * `cc-linker setup`: writes `~/.cc-linker/config.toml` — the chat apps chosen (`--channels`; each
 * app's questions in its own `ChatAppSetup`, listed in `../setup/chat-apps.ts`: Feishu/Lark app id
 * and secret checked against the token endpoint, the Telegram bot token checked with `getMe`, and
 * each owner), default working directory and allowed roots. On a terminal with no answer flags it is a wizard; any answer can be
 * given as a flag or `CC_LINKER_*` variable instead, and without a terminal (or with `--yes`)
 * it never asks: a required answer that is missing stops it with one line naming the flag.
 * Expected failures print `✖ <reason>` in the language chosen during setup and
 * exit 1 (2 for a missing or invalid answer, 130 for Ctrl+C); nothing is written then.
 */
export const setupCommand: CommandSpec = {
  name: 'setup',
  description: `Write ~/.cc-linker/config.toml: the chat apps (${CHAT_APPS.map((a) => a.label.en).join(', ')}) with their credentials checked, owners, directories`,
  options: [
    {
      flags: '--channels <apps>',
      description: `chat apps to set up, comma-separated: ${CHAT_APPS.map((a) => a.id).join(', ')}, or none (the local console only); the others keep their settings`,
    },
    { flags: '--app-id <id>', description: 'Feishu/Lark App ID, cli_ + 16 hex digits (env CC_LINKER_FEISHU_APP_ID)' },
    {
      flags: '--app-secret <secret>',
      description:
        'App Secret, written to the file; prefer env CC_LINKER_FEISHU_APP_SECRET, which is used without being written',
    },
    {
      flags: '--domain <domain>',
      description: 'feishu, lark (international) or a base URL (env CC_LINKER_FEISHU_DOMAIN)',
    },
    {
      flags: '--owner <open_id>',
      description:
        'your Feishu open_id, ou_... (send /whoami to the bot); "" clears it (env CC_LINKER_FEISHU_OWNER_OPEN_ID)',
    },
    {
      flags: '--auto-bind-owner',
      description: 'with no Feishu owner, the first person to message the bot becomes the owner',
    },
    { flags: '--no-auto-bind-owner', description: 'turn Feishu first-message owner binding off' },
    {
      flags: '--default-cwd <dir>',
      description: 'working directory for /new without one (env CC_LINKER_FEISHU_DEFAULT_CWD)',
    },
    { flags: '--allowed-root <dir...>', description: 'directories /new may use (repeatable)' },
    { flags: '--language <zh|en>', description: 'language of messages (env CC_LINKER_LANGUAGE)' },
    ...APP_OPTIONS,
    {
      flags: '--no-check',
      description: 'do not check the credentials with each chat app (Feishu, Telegram, Slack, DingTalk)',
    },
    { flags: '--skip-feishu', description: 'leave Feishu out; its settings stay as they are' },
    {
      flags: '-y, --yes',
      description: 'ask nothing: take answers from flags, environment, the existing file and defaults',
    },
  ],
  action: async (ctx, opts: SetupOptions) => {
    const [{ runSetup }, { SetupError }] = await Promise.all([
      import('../setup/run-setup.js'),
      import('../setup/setup-error.js'),
    ]);
    const terminal = Boolean(process.stdin.isTTY);
    try {
      const chatFlags = Object.fromEntries(APP_OPTIONS.map((o) => [o.key, opts[o.key]]));
      const flags: SetupFlags = { ...opts, yes: opts.yes === true, skipFeishu: opts.skipFeishu === true, chatFlags };
      await runSetup(ctx, flags, { input: process.stdin, output: process.stdout, terminal, interactive: terminal });
      return 0;
    } catch (err) {
      // Shown here rather than by withContext: it is already in the language chosen during setup.
      if (!(err instanceof SetupError)) throw err;
      ctx.out.progress(`✖ ${redact(err.userMessage)}`);
      return err.exitCode;
    }
  },
};
