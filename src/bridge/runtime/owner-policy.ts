import type { Config } from '../../core/config-schema.js';
import type { OwnerPolicy } from '../bridge.js';
import type { UserMapping } from '../mapping/user-mapping.js';

/**
 * Channels whose users are not Feishu users: each has its own owner (configured, or auto-bound
 * once and kept in the user mapping's `channelOwners`).
 */
function channelOwnerConfig(config: Config, channel: string): { owner: string; autoBind: boolean } | undefined {
  if (channel === 'telegram')
    return { owner: config.telegram.owner_user_id, autoBind: config.telegram.allow_auto_bind_owner };
  if (channel === 'slack') return { owner: config.slack.owner_user_id, autoBind: config.slack.allow_auto_bind_owner };
  if (channel === 'dingtalk')
    return { owner: config.dingtalk.owner_staff_id, autoBind: config.dingtalk.allow_auto_bind_owner };
  return undefined;
}

/**
 * The owner policy from config: the configured owner (`feishu_bot.owner_open_id`); or, when none
 * is configured and `allow_auto_bind_owner` is on, the first private-chat sender (bound once,
 * persisted in the user mapping). A Telegram user is judged by `[telegram]`'s owner the same way. Users of a channel in `trustedChannels` were authenticated by
 * the channel itself (the token-protected web console) and are always the owner.
 */
export function ownerPolicyFrom(config: Config, mapping: UserMapping, trustedChannels: readonly string[]): OwnerPolicy {
  return async (channel, userId) => {
    if (trustedChannels.includes(channel)) return 'owner';
    const own = channelOwnerConfig(config, channel);
    if (own) {
      if (own.owner) return own.owner === userId ? 'owner' : 'stranger';
      const bound = (await mapping.read()).channelOwners?.[channel];
      if (bound) return bound === userId ? 'owner' : 'stranger';
      if (own.autoBind && (await mapping.bindChannelOwner(channel, userId))) return 'owner';
      return 'unbound';
    }
    const configured = config.feishu_bot.owner_open_id;
    if (configured) return configured === userId ? 'owner' : 'stranger';
    const data = await mapping.read();
    if (data.ownerOpenId) return data.ownerOpenId === userId ? 'owner' : 'stranger';
    if (config.feishu_bot.allow_auto_bind_owner && (await mapping.bindOwner(userId))) return 'owner';
    return 'unbound';
  };
}
