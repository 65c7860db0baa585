import { describe, expect, it } from 'vitest';
import { commandText, convertSlashCommand } from './slash-command.js';

const now = new Date('2026-01-01T00:00:00Z');
/** A `slash_commands` payload as Slack sends it for `/cc <text>` in the app's DM. */
const payload = (over: Record<string, unknown> = {}) => ({
  token: 'verification-token',
  team_id: 'T0FAKE',
  channel_id: 'D0OWNER',
  channel_name: 'directmessage',
  user_id: 'U0OWNER',
  user_name: 'owner',
  command: '/cc',
  text: 'new ~/code -- go',
  api_app_id: 'A0FAKEAPP',
  response_url: 'https://hooks.slack.test/commands/1',
  trigger_id: '1337.42.abcdef',
  ...over,
});

describe('/cc → the bridge command', () => {
  it.each([
    ['new', '/new'],
    ['  stop all ', '/stop all'],
    ['', '/help'],
    ['   ', '/help'],
    ['/switch 2', '/switch 2'],
    ['／list', '/list'],
    ['new ~/a -- fix &lt;b&gt; &amp; c', '/new ~/a -- fix <b> & c'],
    ['cc how many blocks?', '/cc how many blocks?'],
    ['ListDir ~/x', '/ListDir ~/x'],
    // Not a command word: a question for the cc_exec gateway, as `/cc <question>` elsewhere.
    ['how many blocks?', '/cc how many blocks?'],
    ['我有哪些笔记', '/cc 我有哪些笔记'],
    ['newest notes', '/cc newest notes'],
  ])('%j → %j', (text, expected) => {
    expect(commandText(text)).toBe(expected);
  });

  it('is the message of that user in the DM, with an id that is the same on every copy', () => {
    const d = convertSlashCommand(payload(), 'D0OWNER', now);
    expect(d).toEqual({
      kind: 'message',
      message: {
        id: 'slack:D0OWNER:cmd-1337.42.abcdef',
        channel: 'slack',
        platformMessageId: 'D0OWNER:cmd-1337.42.abcdef',
        userId: 'U0OWNER',
        chatId: 'D0OWNER',
        chatType: 'p2p',
        text: '/new ~/code -- go',
        images: [],
        receivedAt: now.toISOString(),
      },
    });
    expect(convertSlashCommand(payload(), 'D0OWNER', new Date(0))).toMatchObject({
      message: { id: 'slack:D0OWNER:cmd-1337.42.abcdef' },
    });
  });

  it('answers a command typed outside the DM with the app (a channel, another DM) without running it', () => {
    expect(convertSlashCommand(payload({ channel_id: 'C0GENERAL', channel_name: 'general' }), 'D0OWNER', now)).toEqual({
      kind: 'not-dm',
    });
    expect(convertSlashCommand(payload({ channel_id: 'D0SOMEONE' }), 'D0OWNER', now)).toEqual({ kind: 'not-dm' });
  });

  it.each([
    ['another command', { command: '/status' }, 'not our command'],
    ['no trigger id', { trigger_id: undefined }, 'incomplete'],
    ['no user', { user_id: '' }, 'incomplete'],
  ])('ignores %s', (_, over, reason) => {
    expect(convertSlashCommand(payload(over), 'D0OWNER', now)).toEqual({ kind: 'ignore', reason });
  });
});
