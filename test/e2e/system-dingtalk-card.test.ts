// The whole system with DingTalk's AI card configured (`dingtalk.card_template_id`): the answer
// streams into one card that ends finished with the final card, and the prompts still work by
// number. Real dingtalk-stream, real Claude Code, fakes for DingTalk, Feishu and Anthropic.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDingTalk, type FakeDingTalk } from '../fakes/fake-dingtalk/fake-dingtalk-server.js';
import { tapLinks } from '../fakes/fake-dingtalk/tap-links.js';
import { CASE_TIMEOUT_MS, CLAUDE_BIN, showLogOnFailure, startSystem, type System } from './system-harness.js';
import { pointDingTalkAt } from './dingtalk-harness.js';
import { until } from './telegram-harness.js';

const OWNER = 'owner5150';

describe.skipIf(!CLAUDE_BIN)('the whole system over DingTalk with an AI card template', () => {
  let s: System;
  let dt: FakeDingTalk;

  beforeAll(async () => {
    dt = await startFakeDingTalk({ ackTimeoutMs: 1_000 });
    s = await startSystem('sdk', {
      tweak: (c) => {
        pointDingTalkAt(c, dt, OWNER);
        c.dingtalk.card_template_id = 'tpl-ai.schema';
        c.stream.throttle_ms = 100;
      },
    });
    await until(() => dt.connections === 1, 'the Stream connection');
  }, CASE_TIMEOUT_MS);
  afterAll(async () => {
    await s?.stop();
    await dt?.close();
  }, CASE_TIMEOUT_MS);

  it(
    'streams the answer into one card, finished with the final card; a permission prompt is answered by number',
    async () => {
      showLogOnFailure(() => s);
      const cwd = s.sys.project('dtc-slow');
      dt.push(dt.robotMessage(OWNER, `/new ${cwd} -- slow: 60`));
      const cardOf = () => [...dt.cards.values()].find((c) => c.userId === OWNER);
      await until(() => cardOf()?.params.flowStatus === '3', 'the finished card', 45_000);
      const card = cardOf();
      expect(dt.cards.size).toBe(1);
      expect(card?.templateId).toBe('tpl-ai.schema');
      expect(card?.streams).toBeGreaterThan(0);
      expect(card?.params.content).toContain('tick19');
      expect(card?.params.content).toMatch(/🔄 \d+ turns/);

      const perm = s.sys.project('dtc-perm');
      dt.push(dt.robotMessage(OWNER, `/new ${perm} -- tool: Bash touch y`));
      // The prompt is a markdown message with tappable options even with a card template.
      await until(() => dt.messagesTo(OWNER).some((m) => tapLinks(m.text)[0]?.label === 'Allow'), 'the prompt', 45_000);
      dt.push(dt.robotMessage(OWNER, '1'));
      await until(() => fs.existsSync(path.join(perm, 'y')), 'the tool run', 45_000);
      await until(() => [...dt.cards.values()].filter((c) => c.params.flowStatus === '3').length === 2, 'second card');
    },
    CASE_TIMEOUT_MS,
  );
});
