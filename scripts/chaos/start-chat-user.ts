import type { ChaosChannel, ChatUser } from './chat-user.js';
import { DingTalkUser } from './dingtalk-user.js';
import { FeishuUser } from './feishu-user.js';
import { SlackUser } from './slack-user.js';
import { TelegramUser } from './telegram-user.js';

/**
 * Starts the chat app's fake server in this process and returns its user. A new channel adds
 * one `ChatUser` file and one line here (see docs/chaos.md#channels).
 */
export async function startChatUser(
  channel: ChaosChannel,
  random: () => number,
  o: { telegramMode?: 'polling' | 'webhook' } = {},
): Promise<ChatUser> {
  switch (channel) {
    case 'feishu':
      return FeishuUser.start(random);
    case 'telegram':
      return TelegramUser.start({ webhook: o.telegramMode === 'webhook' });
    case 'slack':
      return SlackUser.start();
    case 'dingtalk':
      return DingTalkUser.start();
  }
}
