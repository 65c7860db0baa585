import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/default-config.js';
import { UserMapping } from '../mapping/user-mapping.js';
import { ownerPolicyFrom } from './owner-policy.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await fs.rm(dir, { recursive: true, force: true });
});

async function setup(configure: (c: ReturnType<typeof defaultConfig>) => void) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-owner-dt-'));
  dirs.push(dir);
  const config = defaultConfig();
  configure(config);
  const mapping = new UserMapping(path.join(dir, 'user-mapping.json'));
  return { policy: ownerPolicyFrom(config, mapping, ['web']), mapping };
}

describe('ownerPolicyFrom for DingTalk (its own owner, apart from Feishu and Telegram)', () => {
  it('judges a DingTalk user by dingtalk.owner_staff_id only', async () => {
    const { policy } = await setup((c) => {
      c.dingtalk.owner_staff_id = 'manager1';
      c.telegram.owner_user_id = '4242';
    });
    expect(await policy('dingtalk', 'manager1')).toBe('owner');
    expect(await policy('dingtalk', '4242')).toBe('stranger');
    expect(await policy('telegram', 'manager1')).toBe('stranger');
  });

  it('auto-binds the first DingTalk sender once, beside a Telegram owner, and leaves it unbound otherwise', async () => {
    const { policy, mapping } = await setup((c) => {
      c.dingtalk.allow_auto_bind_owner = true;
      c.telegram.allow_auto_bind_owner = true;
    });
    expect(await policy('telegram', '100')).toBe('owner');
    expect(await policy('dingtalk', 'staffA')).toBe('owner');
    expect(await policy('dingtalk', 'staffB')).toBe('stranger');
    expect((await mapping.read()).channelOwners).toEqual({ telegram: '100', dingtalk: 'staffA' });
    const fresh = await setup(() => undefined);
    expect(await fresh.policy('dingtalk', 'staffA')).toBe('unbound');
  });
});
