import type { SpeechToText } from '../../bridge/voice/speech-to-text.js';
import type { Channel } from '../../bridge/channel.js';
import type { ChatChannelContext, ChatChannelStart } from './chat-channel-start.js';

/** How the Slack channel came out of `start`: see `Daemon.slack`. */
export type SlackStart = ChatChannelStart;

/**
 * The Slack channel when `slack.enabled` and both tokens are set. Its `start()` never throws (a
 * refused token or an outage shows in its status and is retried), and a failure to create it is
 * logged and skipped: Slack never keeps Feishu, Telegram or the console from running. Bolt is
 * loaded only when the channel runs. Its audio clips go to the daemon's `speechToText` (one that
 * cannot take them, or none: they are kept as files).
 */
export async function slackChannel(
  o: ChatChannelContext,
  speechToText?: SpeechToText,
): Promise<Channel | Exclude<SlackStart, 'started'>> {
  const { config, paths, lang, logger } = o;
  if (!config.slack.enabled) return 'disabled';
  if (config.slack.bot_token === '' || config.slack.app_token === '') {
    logger.warn(
      'slack.enabled is true but a token is missing (slack.bot_token / CC_LINKER_SLACK_BOT_TOKEN, slack.app_token / CC_LINKER_SLACK_APP_TOKEN)',
    );
    return 'no-credentials';
  }
  if (config.voice.enabled && !speechToText?.transcribeFile)
    logger.info(
      'Slack audio clips will be kept as files: they need voice.api_key (an OpenAI-compatible endpoint) and voice.service = "openai"',
    );
  try {
    const { createSlackChannel } = await import('../../channels/slack/slack-channel.js');
    return createSlackChannel({
      botToken: config.slack.bot_token,
      appToken: config.slack.app_token,
      apiUrl: config.slack.api_url,
      lang,
      logger,
      imagesDir: paths.imagesDir,
      images: config.images,
      attachmentsDir: paths.attachmentsDir,
      files: config.files,
      stream: config.stream,
      runtimeDir: paths.runtimeDir,
      voice: config.voice,
      ...(speechToText ? { speechToText } : {}),
    });
  } catch (err) {
    logger.error('the Slack channel could not be created; running without it', { err });
    return 'error';
  }
}
