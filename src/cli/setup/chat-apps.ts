import { feishuSetup } from './ask-feishu.js';
import { telegramSetup } from './ask-telegram.js';
import { slackSetup } from './ask-slack.js';
import { dingtalkSetup } from './ask-dingtalk.js';
import type { ChatAppSetup } from './chat-app.js';

/**
 * Every chat app `cc-linker setup` can set up, in the order it asks about them. One line per app;
 * the app's file says everything else (`chat-app.ts`).
 */
export const CHAT_APPS: readonly ChatAppSetup[] = [feishuSetup, telegramSetup, slackSetup, dingtalkSetup];
