import { defineMessages } from '../core/i18n.js';

/**
 * The gateway's texts, zh and en: the notes the loop puts into the conversation for the model
 * (system prompt, one-call rule, duplicate call, limit reached) and the lines a user
 * sees (notices, errors). Model-facing texts follow the user's language so the answer does too.
 */
export const loopMessages = defineMessages({
  zh: {
    systemPrompt:
      '你是用户本机 ChainlessChain 数据的助手（笔记、记忆、技能、会话、MCP 服务器、DID 身份、运行状态）。需要这些数据时，调用 cc_exec 工具执行一条只读命令；每轮只调用一次工具，每个问题最多 {max} 次。关于用户数据的每一句话都必须来自工具输出；命令失败或不被允许时如实说明，绝不编造结果。用用户的语言回答，把命令输出整理成通顺的话，不要照搬 JSON。',
    toolsUnavailable:
      'cc_exec 工具当前不可用：{reason}。遇到需要查询用户本地数据的请求，请明确告知用户原因，不要凭空捏造答案。',
    oneCallPerTurn: '未执行：每轮只执行第一个工具调用。如果仍然需要，请在下一轮再调用。',
    duplicateCall: '[与本次提问中较早的一次调用完全相同，未再次执行；以下是那次的结果]',
    limitReached: '已达工具调用上限（{max} 次），下面请以现有信息回复，不要再调用工具。',
    noticeExtraCalls: '模型一次请求了 {n} 个工具调用，只执行了第一个。',
    noticeLimit: '已达工具调用上限（{max} 次），模型将以现有信息回答。',
    noticeTrimmed: '对话较长，较早的消息已从发给模型的上下文中移除。',
    noticeUnavailable: '工具不可用：{reason}',
    noticeToolsRejected:
      '模型服务 {provider} 的模型 {model} 不接受工具调用，已改为普通对话（在本次运行期间都如此），不能查询本地数据。需要查询时请换用 OpenAI / Doubao / Anthropic 模型；在配置里写 tools = false 可不再尝试。',
    busy: '这个对话正在回答上一个问题，请等它完成或先取消。',
    internal: '内部错误：{detail}',
  },
  en: {
    systemPrompt:
      "You help the user with their own ChainlessChain data on this device (notes, memory, skills, sessions, MCP servers, DID identities, status). When a question needs that data, call the cc_exec tool with one read-only command; one tool call per turn, at most {max} per question. Base every statement about the user's data on tool output; if a command fails or is not allowed, say so plainly and never invent results. Answer in the user's language, in plain sentences rather than raw JSON.",
    toolsUnavailable:
      "The cc_exec tool is unavailable right now: {reason}. When a request needs the user's local data, tell the user why clearly and never make up an answer.",
    oneCallPerTurn:
      'Not run: only the first tool call of a turn runs (one call at a time). Call it again in a later turn if you still need it.',
    duplicateCall: '[Identical to an earlier call for this question; not run again. Its result follows.]',
    limitReached:
      'Tool call limit reached ({max} calls). Answer now with the information you already have; do not call tools again.',
    noticeExtraCalls: 'The model asked for {n} tool calls at once; only the first one ran.',
    noticeLimit: 'Tool call limit reached ({max}); the model answers with what it has.',
    noticeTrimmed: 'The conversation is long; older messages were left out of what the model sees.',
    noticeUnavailable: 'Tools unavailable: {reason}',
    noticeToolsRejected:
      'The model {model} of the model service {provider} does not accept tool calls, so this is plain chat now (for as long as cc-linker runs) and local data cannot be queried. Switch to an OpenAI / Doubao / Anthropic model for that; tools = false in the config stops the attempt.',
    busy: 'This chat is still answering the previous question; wait for it or cancel it first.',
    internal: 'Internal error: {detail}',
  },
});
