/**
 * The Slack channel at start (real Bolt against the fake Slack): bot scopes the app lacks, read
 * from `auth.test`'s `x-oauth-scopes` header, are logged once as one warning naming each and the
 * fix — not again on a reconnect — and the channel still connects. With every scope, or without the
 * header, nothing is said. The channel's status (what `cc-linker status`, the console and `/status`
 * show) stays connected and names the same missing scopes; with every scope it is just the bot's name.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { until } from './telegram-harness.js';
import { SlackHarness } from './slack-harness.js';

let h: SlackHarness;
afterEach(async () => {
  await h.cleanup();
});

const warnings = () =>
  h.logs
    .join('')
    .split('\n')
    .filter((l) => l.includes('slack app lacks bot scopes'));

describe('Slack channel start with bot scopes missing', () => {
  it('logs one warning naming each missing scope and the fix, once, and still connects', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    fake.scopes = ['chat:write', 'im:history', 'im:write', 'files:write'];
    const { channel } = await h.channel(fake);
    await until(() => channel.status().connected, 'connected');
    expect(warnings()).toHaveLength(1);
    const line = warnings()[0] ?? '';
    expect(line).toContain(' WARN ');
    expect(line).toContain('"missing":"files:read,commands"');
    expect(line).toContain('files:read (files you send), commands (the /cc command)');
    expect(line).toContain('OAuth & Permissions → Bot Token Scopes');
    expect(line).not.toContain(fake.botToken);
    expect(channel.status()).toEqual({ connected: true, detail: '@cc-linker; missing scopes: files:read, commands' });
    fake.hub.disconnectAll();
    await until(() => fake.callsOf('apps.connections.open').length === 2, 'a second connection');
    await until(() => channel.status().connected, 'connected again');
    expect(warnings()).toHaveLength(1);
    expect(channel.status().detail).toBe('@cc-linker; missing scopes: files:read, commands');
  });

  it('names the missing scopes in Chinese in the status with lang zh', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    fake.scopes = ['chat:write', 'im:history', 'im:write', 'files:read', 'files:write'];
    const { channel } = await h.channel(fake, { lang: 'zh' });
    await until(() => channel.status().connected, 'connected');
    expect(channel.status().detail).toBe('@cc-linker; 缺少权限：commands');
  });

  it('says nothing with every scope granted or without the header', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const { channel } = await h.channel(fake);
    await until(() => channel.status().connected, 'connected');
    fake.scopes = undefined;
    const { channel: second } = await h.channel(fake);
    await until(() => second.status().connected, 'the second connected');
    expect(fake.callsOf('auth.test')).toHaveLength(2);
    expect(warnings()).toEqual([]);
    expect(channel.status()).toEqual({ connected: true, detail: '@cc-linker' });
    expect(second.status()).toEqual({ connected: true, detail: '@cc-linker' });
  });
});
