import { chaosSmokeOverChatApp } from './chaos-smoke-chat-app.js';

// Slack (real Bolt over Socket Mode): a Web API 5xx and reset, a dropped socket, re-sent events; stops by button and Cancel.
chaosSmokeOverChatApp('slack', 7, { everyStopAnswered: true });
