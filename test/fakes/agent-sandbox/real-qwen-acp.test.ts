import { describeRealAgent } from './real-agent-suite.js';

// The real Qwen Code 0.15 (`--acp --approval-mode default`) against the fake chat-completions server.
describeRealAgent('qwen');
