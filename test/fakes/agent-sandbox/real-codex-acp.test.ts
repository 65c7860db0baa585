import { describeRealAgent } from './real-agent-suite.js';

// The real Codex (codex-acp's native binary) against the fake OpenAI Responses server.
describeRealAgent('codex');
