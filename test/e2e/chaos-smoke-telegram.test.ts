import { chaosSmokeOverChatApp } from './chaos-smoke-chat-app.js';

// Telegram: the fake Bot API under 5xx, a dropped long poll and re-delivered updates; three Stop-button stops.
chaosSmokeOverChatApp('telegram', 5);
