import { isChatCommandWord } from '../../bridge/commands/command-parser.js';
import type { InboundMessage } from '../../bridge/inbound-message.js';
import { slackTextToPlain } from './inbound-event.js';

/** The one slash command the app registers (docs/slack-app-manifest.yaml): `/cc <command> …`. */
export const SLASH_COMMAND = '/cc';

/** What one `/cc` invocation means to the channel. */
export type SlashDecision =
  | { kind: 'message'; message: InboundMessage }
  /** Typed somewhere else than the user's direct message with the app: answered, nothing runs. */
  | { kind: 'not-dm' }
  | { kind: 'ignore'; reason: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * The bridge text a `/cc` text stands for. A cc-linker command word first runs that command:
 * `new ~/x -- go` → `/new ~/x -- go` (a slash typed after `/cc`, `/cc /stop`, is taken once);
 * nothing → `/help`; anything else is a question for the cc_exec gateway, as `/cc <question>` is in
 * every other chat app (`/cc cc <question>` asks one that starts with a command word). Slack's
 * escaped `&`, `<`, `>` are decoded.
 */
export function commandText(text: string): string {
  const typed = slackTextToPlain(text).replace(/^[\s\u00a0\u3000]+|[\s\u00a0\u3000]+$/g, '');
  const rest = typed.replace(/^[/／]/, '');
  if (rest === '') return '/help';
  const word = /^[^\s\u00a0\u3000]*/.exec(rest)?.[0] ?? '';
  return rest !== typed || isChatCommandWord(word) ? `/${rest}` : `/cc ${rest}`;
}

/**
 * One `slash_commands` payload → the message the bridge gets, or why not. `dmChannel` is the app's
 * direct-message channel with the sender (`conversations.open`): a command typed anywhere else is
 * `not-dm`. The id `slack:<channel>:cmd-<trigger_id>` is the same on every copy of the envelope
 * Slack sends, so the bridge's receipts run it once. Who may run it stays the bridge's decision.
 */
export function convertSlashCommand(payload: unknown, dmChannel: string, now: Date): SlashDecision {
  if (!isObj(payload) || payload.command !== SLASH_COMMAND) return { kind: 'ignore', reason: 'not our command' };
  const user = str(payload.user_id);
  const channel = str(payload.channel_id);
  const trigger = str(payload.trigger_id);
  if (!user || !channel || !trigger) return { kind: 'ignore', reason: 'incomplete' };
  if (channel !== dmChannel) return { kind: 'not-dm' };
  const ref = `${channel}:cmd-${trigger}`;
  return {
    kind: 'message',
    message: {
      id: `slack:${ref}`,
      channel: 'slack',
      platformMessageId: ref,
      userId: user,
      chatId: channel,
      chatType: 'p2p',
      text: commandText(typeof payload.text === 'string' ? payload.text : ''),
      images: [],
      receivedAt: now.toISOString(),
    },
  };
}
