import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOT_SCOPES } from './bot-scopes.js';
import { SLASH_COMMAND } from './slash-command.js';

/** docs/slack-app-manifest.yaml: what a user pastes into Slack's "Create app → From a manifest". */
const manifest = fs.readFileSync(new URL('../../../docs/slack-app-manifest.yaml', import.meta.url), 'utf8');
const here = path.dirname(new URL(import.meta.url).pathname);

/** The bot scope each Web API method the channel calls needs (Slack's method pages). */
const SCOPE_OF: Record<string, string | null> = {
  'auth.test': null,
  'chat.postMessage': 'chat:write',
  'chat.update': 'chat:write',
  'chat.postEphemeral': 'chat:write',
  'conversations.open': 'im:write',
  'files.uploadV2': 'files:write',
};

/** The YAML list under `key:` (two more spaces of indent than the key), comments dropped. */
function listUnder(key: string): string[] {
  const lines = manifest.split('\n');
  const start = lines.findIndex((l) => l.trim() === `${key}:`);
  if (start < 0) return [];
  const indent = (lines[start]?.length ?? 0) - (lines[start]?.trimStart().length ?? 0);
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const m = /^(\s*)- ([^#\s]+)/.exec(line);
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!m || (m[1]?.length ?? 0) <= indent) break;
    out.push(m[2] ?? '');
  }
  return out;
}

describe('the Slack app manifest', () => {
  it('grants a scope for every Web API call the channel makes, and nothing more', () => {
    const calls = new Set<string>();
    for (const name of fs.readdirSync(here).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')))
      for (const m of fs.readFileSync(path.join(here, name), 'utf8').matchAll(/client\.(\w+)\.(\w+)\(/g))
        calls.add(`${m[1]}.${m[2]}`);
    expect([...calls].filter((c) => !(c in SCOPE_OF))).toEqual([]);
    const needed = new Set([...calls].map((c) => SCOPE_OF[c]).filter((s): s is string => typeof s === 'string'));
    // Besides the calls: the message.im event (im:history), file downloads (files:read), the command.
    for (const s of ['im:history', 'files:read', 'commands']) needed.add(s);
    expect(listUnder('bot').sort()).toEqual([...needed].sort());
    // `doctor` and the daemon check a token's scopes against BOT_SCOPES: the same list.
    expect(Object.keys(BOT_SCOPES).sort()).toEqual([...needed].sort());
  });

  it('is a Socket Mode app with the DM event, interactivity and the /cc command', () => {
    expect(manifest).toMatch(/^ {2}socket_mode_enabled: true$/m);
    expect(listUnder('bot_events')).toEqual(['message.im']);
    expect(manifest).toMatch(/^ {2}interactivity:\n(?: {4}#.*\n)* {4}is_enabled: true$/m);
    expect(manifest).toMatch(/^ {4}messages_tab_enabled: true$/m);
    expect(manifest).toMatch(/^ {4}messages_tab_read_only_enabled: false$/m);
    expect(manifest).toContain(`    - command: ${SLASH_COMMAND}\n`);
    expect(manifest).not.toMatch(/\burl:/);
  });
});
