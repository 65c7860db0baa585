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
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-owner-'));
  const config = defaultConfig();
  configure(config);
  const mapping = new UserMapping(path.join(dir, 'user-mapping.json'));
  return { policy: ownerPolicyFrom(config, mapping, ['web']), mapping };
}

describe('ownerPolicyFrom for Telegram (its own owner, apart from Feishu)', () => {
  it('judges a Telegram user by telegram.owner_user_id, never by the Feishu owner', async () => {
    const { policy } = await setup((c) => {
      c.telegram.owner_user_id = '4242';
      c.feishu_bot.owner_open_id = '4243';
    });
    expect(await policy('telegram', '4242')).toBe('owner');
    expect(await policy('telegram', '4243')).toBe('stranger');
    expect(await policy('feishu', '4242')).toBe('stranger');
  });

  it('auto-binds the first Telegram sender once, kept in the mapping, without touching the Feishu owner', async () => {
    const { policy, mapping } = await setup((c) => {
      c.telegram.allow_auto_bind_owner = true;
      c.feishu_bot.allow_auto_bind_owner = true;
    });
    expect(await policy('telegram', '100')).toBe('owner');
    expect(await policy('telegram', '200')).toBe('stranger');
    expect(await policy('telegram', '100')).toBe('owner');
    const data = await mapping.read();
    expect(data.channelOwners).toEqual({ telegram: '100' });
    expect(data.ownerOpenId).toBeNull();
    expect(await policy('feishu', 'ou_first')).toBe('owner');
    expect((await mapping.read()).channelOwners).toEqual({ telegram: '100' });
  });

  it('leaves a Telegram user unbound (refused, /whoami answered) without an owner or auto-bind', async () => {
    const { policy, mapping } = await setup(() => undefined);
    expect(await policy('telegram', '100')).toBe('unbound');
    expect((await mapping.read()).channelOwners).toBeUndefined();
  });
});
