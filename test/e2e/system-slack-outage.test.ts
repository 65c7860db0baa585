// A Slack outage never stops the rest: with the Web API unreachable the daemon still starts,
// Feishu answers, and /status names the Slack error (the REAL Bolt and Feishu SDK, real Claude Code).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SentMessage } from '../fakes/fake-feishu/fake-feishu-server.js';
import { startFakeSlack } from '../fakes/fake-slack/fake-slack-server.js';
import { CASE_TIMEOUT_MS, CLAUDE_BIN, repliesTo, showLogOnFailure, startSystem } from './system-harness.js';
import { OWNER } from './slack-harness.js';

describe.skipIf(!CLAUDE_BIN)('a Slack outage never stops the rest', () => {
  it(
    'with the Web API unreachable the daemon starts, Feishu answers, and /status names the Slack error',
    async () => {
      const dead = await startFakeSlack();
      const apiUrl = dead.apiUrl;
      await dead.close(); // nothing listens there any more
      const s = await startSystem('sdk', {
        tweak: (c) => {
          c.slack.enabled = true;
          c.slack.bot_token = dead.botToken;
          c.slack.app_token = dead.appToken;
          c.slack.api_url = apiUrl;
          c.slack.owner_user_id = OWNER;
        },
      });
      try {
        showLogOnFailure(() => s);
        expect(s.runtime.slack).toBe('started');
        const slackState = async () =>
          (await s.runtime.bridge.status()).channels.find((c) => c.id === 'slack')?.detail ?? '';
        for (let i = 0; i < 400 && !(await slackState()).startsWith('error'); i += 1)
          await new Promise((r) => setTimeout(r, 50));
        const { messageId } = await s.send('/status');
        await s.fake.waitFor(() => repliesTo(s.fake, messageId).length === 1);
        const text = s.fake.textOf(repliesTo(s.fake, messageId)[0] as SentMessage);
        expect(text).toMatch(/slack: disconnected .*error: .*auth\.test.*network request failed/);
        expect(text).not.toContain(dead.botToken);
        const status = await s.runtime.bridge.status();
        expect(status.channels.find((c) => c.id === 'feishu')).toMatchObject({ connected: true });
        expect(status.channels.find((c) => c.id === 'slack')).toMatchObject({ connected: false });
        const log = fs.readFileSync(s.logFile, 'utf8');
        expect(log).not.toContain(dead.botToken);
        expect(log).not.toContain(dead.appToken);
      } finally {
        await s.stop();
      }
    },
    CASE_TIMEOUT_MS,
  );
});
