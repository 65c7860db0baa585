import { parseArgs } from 'node:util';
import { CHAOS_CHANNELS, type ChaosChannel } from './chat-user.js';
import { randomSeed } from './rng.js';

/** What one chaos run is asked to do (the command-line flags, validated). */
export interface ChaosOptions {
  seed: number;
  /** The chat app the user writes from (its fake server runs in the chaos process). */
  channel: ChaosChannel;
  messages: number;
  kills: number;
  engine: 'fake' | 'real';
  /** The real engine's mode (the fake engine is always `json`). */
  mode: 'sdk' | 'stream-json';
  /** Where the JSON report goes (none when empty). */
  report: string;
  /** Keep the sandbox (logs, spool, config) after the run instead of deleting it. */
  keep: boolean;
  /** Print a line per injected fault and life while running. */
  verbose: boolean;
  /** How Telegram hands the bridge its updates (`--channel telegram` only): long polling or POSTs to a webhook. */
  telegramMode: 'polling' | 'webhook';
}

export const USAGE = `npm run chaos -- [--channel feishu|telegram|slack|dingtalk] [--seed <n>] [--messages <n>] [--kills <n>] [--engine fake|real] [--mode sdk|stream-json] [--report <file>] [--keep] [--verbose] [--telegram-mode polling|webhook]

  --channel <c>     the chat app the user writes from: feishu (default), telegram, slack or dingtalk;
                    the bridge runs with only that channel, against its fake server
  --seed <n>        seed of the randomized plan (default: random, printed)
  --messages <n>    user messages to send (default 300; 40 with --engine real)
  --kills <n>       SIGKILLs of the bridge (default 30; 5 with --engine real)
  --engine <e>      fake = a fast fake claude in json mode (default);
                    real = the bundled Claude Code binary against the fake Anthropic API
  --mode <m>        the real engine's claude.mode: sdk (default) or stream-json
  --report <file>   also write the report as JSON
  --keep            keep the sandbox (logs, spool) and print where it is (always kept when a goal is missed)
  --verbose         print every injected fault as it happens
  --telegram-mode <m>  with --channel telegram: polling = getUpdates (default); webhook = the bridge
                    listens on a local port and the fake Telegram POSTs each update to it (through a
                    stand-in for the HTTPS reverse proxy), sending it again until answered 2xx`;

/** Parses `argv` (without node and the script); throws a message meant for the user on bad input. */
export function parseChaosOptions(argv: string[]): ChaosOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      seed: { type: 'string' },
      channel: { type: 'string' },
      messages: { type: 'string' },
      kills: { type: 'string' },
      engine: { type: 'string' },
      mode: { type: 'string' },
      report: { type: 'string' },
      keep: { type: 'boolean' },
      verbose: { type: 'boolean' },
      'telegram-mode': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) throw new Error(USAGE);
  const channel = values.channel ?? 'feishu';
  if (!(CHAOS_CHANNELS as readonly string[]).includes(channel))
    throw new Error(`--channel must be ${CHAOS_CHANNELS.join(' or ')}, got ${channel}`);
  const engine = values.engine ?? 'fake';
  if (engine !== 'fake' && engine !== 'real') throw new Error(`--engine must be fake or real, got ${engine}`);
  const mode = values.mode ?? 'sdk';
  if (mode !== 'sdk' && mode !== 'stream-json') throw new Error(`--mode must be sdk or stream-json, got ${mode}`);
  if (values.mode !== undefined && engine !== 'real') throw new Error('--mode needs --engine real');
  const telegramMode = values['telegram-mode'] ?? 'polling';
  if (telegramMode !== 'polling' && telegramMode !== 'webhook')
    throw new Error(`--telegram-mode must be polling or webhook, got ${telegramMode}`);
  if (values['telegram-mode'] !== undefined && channel !== 'telegram')
    throw new Error('--telegram-mode needs --channel telegram');
  const int = (name: string, raw: string | undefined, fallback: number, min: number): number => {
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min) throw new Error(`--${name} must be an integer ≥ ${min}, got ${raw}`);
    return Number(raw);
  };
  return {
    seed: int('seed', values.seed, randomSeed(), 0),
    channel: channel as ChaosChannel,
    messages: int('messages', values.messages, engine === 'real' ? 40 : 300, 5),
    kills: int('kills', values.kills, engine === 'real' ? 5 : 30, 0),
    engine,
    mode,
    report: values.report ?? '',
    keep: values.keep ?? false,
    verbose: values.verbose ?? false,
    telegramMode,
  };
}
