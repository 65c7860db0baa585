import type { Config } from '../../core/config-schema.js';
import type { OwnerPolicy } from '../bridge.js';
import type { UserMapping } from '../mapping/user-mapping.js';

/**
 * The owner policy from config: the configured owner (`feishu_bot.owner_open_id`); or, when none
 * is configured and `allow_auto_bind_owner` is on, the first private-chat sender (bound once,
 * persisted in the user mapping). Users of a channel in `trustedChannels` were authenticated by
 * the channel itself (the token-protected web console) and are always the owner.
 */
export function ownerPolicyFrom(config: Config, mapping: UserMapping, trustedChannels: readonly string[]): OwnerPolicy {
  return async (channel, userId) => {
    if (trustedChannels.includes(channel)) return 'owner';
    const configured = config.feishu_bot.owner_open_id;
    if (configured) return configured === userId ? 'owner' : 'stranger';
    const data = await mapping.read();
    if (data.ownerOpenId) return data.ownerOpenId === userId ? 'owner' : 'stranger';
    if (config.feishu_bot.allow_auto_bind_owner && (await mapping.bindOwner(userId))) return 'owner';
    return 'unbound';
  };
}
