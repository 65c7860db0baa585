import type { Channel } from '../../bridge/channel.js';
import type { Config } from '../../core/config-schema.js';
import type { ChatChannelContext, ChatChannelStart } from './chat-channel-start.js';

/** What `start` says about the DingTalk channel (see `Daemon.dingtalk`). */
export type DingTalkStart = ChatChannelStart;

/** True when both DingTalk credentials are configured (file or environment). */
export function hasDingTalkCredentials(config: Config): boolean {
  return config.dingtalk.client_id !== '' && config.dingtalk.client_secret !== '';
}

/**
 * The DingTalk channel when `dingtalk.enabled` and both credentials are set. Its `start()` never
 * throws (refused credentials or an outage show in its status and are retried), and a failure to
 * create it is logged and skipped: DingTalk never keeps Feishu, Telegram or the console from
 * running (docs/design.md#dingtalk).
 */
export async function dingtalkChannel(o: ChatChannelContext): Promise<Channel | Exclude<DingTalkStart, 'started'>> {
  const { config, paths, lang, logger } = o;
  if (!config.dingtalk.enabled) return 'disabled';
  if (!hasDingTalkCredentials(config)) {
    logger.warn(
      'dingtalk.enabled is true but client_id or client_secret is missing (dingtalk.* / CC_LINKER_DINGTALK_CLIENT_ID, CC_LINKER_DINGTALK_CLIENT_SECRET)',
    );
    return 'no-credentials';
  }
  try {
    const { createDingTalkChannel } = await import('../../channels/dingtalk/dingtalk-channel.js');
    return createDingTalkChannel({
      clientId: config.dingtalk.client_id,
      clientSecret: config.dingtalk.client_secret,
      apiBase: config.dingtalk.api_base,
      oapiBase: config.dingtalk.oapi_base,
      lang,
      logger,
      imagesDir: paths.imagesDir,
      images: config.images,
      attachmentsDir: paths.attachmentsDir,
      files: config.files,
      voice: config.voice,
      stream: config.stream,
      ...(config.dingtalk.card_template_id
        ? { card: { templateId: config.dingtalk.card_template_id, key: config.dingtalk.card_template_key } }
        : {}),
      runtimeDir: paths.runtimeDir,
    });
  } catch (err) {
    logger.error('the DingTalk channel could not be created; running without it', { err });
    return 'error';
  }
}
