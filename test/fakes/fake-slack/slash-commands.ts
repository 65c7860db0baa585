import { randomUUID } from 'node:crypto';
import { TEAM_ID, type FakeSlack } from './fake-slack-server.js';
import type { Envelope } from './socket-mode-hub.js';

/**
 * `user` types `/cc <text>` (`over` may move it: `{ channel_id: 'C0GENERAL' }`); the fake sends the
 * `slash_commands` envelope Slack sends over Socket Mode — re-sent with the same payload while not
 * acknowledged. The ack's payload (what Slack shows the user) is `fake.hub.ackPayloads.get(id)`.
 */
export function pushCommand(fake: FakeSlack, user: string, text: string, over: Record<string, unknown> = {}): Envelope {
  const dm = fake.dm(user);
  return fake.hub.send('slash_commands', {
    token: 'verification-token',
    team_id: TEAM_ID,
    team_domain: 'fake',
    channel_id: dm,
    channel_name: 'directmessage',
    user_id: user,
    user_name: `user-${user}`,
    command: '/cc',
    text,
    api_app_id: 'A0FAKEAPP',
    is_enterprise_install: 'false',
    response_url: `${fake.apiUrl.replace(/api\/$/, '')}commands/${randomUUID()}`,
    trigger_id: `${Date.now()}.${randomUUID()}`,
    ...over,
  });
}
