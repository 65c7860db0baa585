import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/default-config.js';
import { UserMapping } from '../mapping/user-mapping.js';
import { ownerPolicyFrom } from './owner-policy.js';

let dir: string;
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function setup(configure: (c: ReturnType<typeof defaultConfig>) => void) {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-owner-slack-'));
  const config = defaultConfig();
  configure(config);
  const mapping = new UserMapping(path.join(dir, 'user-mapping.json'));
  return { policy: ownerPolicyFrom(config, mapping, ['web']), mapping };
}

describe('ownerPolicyFrom for Slack (its own owner, apart from Feishu and Telegram)', () => {
  it('judges a Slack user by slack.owner_user_id only', async () => {
    const { policy } = await setup((c) => {
      c.slack.owner_user_id = 'U0OWNER';
      c.telegram.owner_user_id = '4242';
      c.feishu_bot.owner_open_id = 'U0OTHER';
    });
    expect(await policy('slack', 'U0OWNER')).toBe('owner');
    expect(await policy('slack', 'U0OTHER')).toBe('stranger');
    expect(await policy('slack', '4242')).toBe('stranger');
    expect(await policy('telegram', 'U0OWNER')).toBe('stranger');
  });

  it('auto-binds the first Slack sender once, kept in the mapping next to Telegram', async () => {
    const { policy, mapping } = await setup((c) => {
      c.slack.allow_auto_bind_owner = true;
      c.telegram.allow_auto_bind_owner = true;
    });
    expect(await policy('slack', 'U0FIRST')).toBe('owner');
    expect(await policy('slack', 'U0SECOND')).toBe('stranger');
    expect(await policy('telegram', '100')).toBe('owner');
    expect((await mapping.read()).channelOwners).toEqual({ slack: 'U0FIRST', telegram: '100' });
  });

  it('leaves a Slack user unbound without an owner or auto-bind', async () => {
    const { policy, mapping } = await setup(() => undefined);
    expect(await policy('slack', 'U0ANY')).toBe('unbound');
    expect((await mapping.read()).channelOwners).toBeUndefined();
  });
});
