import { chaosSmokeOverChatApp } from './chaos-smoke-chat-app.js';

// DingTalk (the real dingtalk-stream client, robot markdown messages): an OpenAPI 429 and 5xx,
// re-pushed CALLBACKs, a kill right after an answered batchSend; a typed /stop (no buttons on DingTalk).
chaosSmokeOverChatApp('dingtalk', 10);
