import { chatAgentRequest, geminiAgentRequest, responsesAgentRequest } from './agent-request.js';
import {
  defaultAgentScript,
  textPieces,
  type AgentReply,
  type AgentRequest,
  type AgentScript,
} from './agent-script.js';
import {
  openaiToolCallTurn,
  startFakeOpenAIServer,
  type OpenAIFakeEvent,
  type OpenAIFakeTurn,
} from './fake-openai-server.js';
import {
  startFakeOpenAIResponsesServer,
  type ResponsesFakeEvent,
  type ResponsesFakeTurn,
} from './fake-openai-responses-server.js';
import { geminiRoute, startFakeGeminiServer, type GeminiFakeEvent, type GeminiFakeTurn } from './fake-gemini-server.js';
import type { RecordedRequest } from './scripted-sse-server.js';

/**
 * A fake model for a real coding agent: one of the scripted servers with an {@link AgentScript}
 * deciding every request from what it carries (the last user text, tool outputs, the offered
 * tools), so an agent can run whole turns with no queued answers. Which server speaks to which agent:
 * `responses` → Codex (codex-acp), `chat` → Qwen Code, OpenCode, `gemini` → Gemini CLI.
 */

/** The wire API the agent speaks. */
export type AgentModelApi = 'responses' | 'chat' | 'gemini';

/** One model call the script answered: what it saw and what it said. */
export type AgentCall = { request: AgentRequest; reply: AgentReply };

export type AgentModelServer = {
  readonly api: AgentModelApi;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** What the agent's base-URL setting takes: `<origin>/v1` (`<origin>` for `gemini`). */
  readonly baseUrl: string;
  /** Every model call the script answered, in order (background calls included). */
  readonly calls: AgentCall[];
  /** Every HTTP request, answered or not (404s included). */
  readonly requests: RecordedRequest[];
  /** What the script threw (each answered with HTTP 400), in order. */
  readonly scriptErrors: unknown[];
  /** Replaces the script for later requests. */
  setScript(script: AgentScript): void;
  /** How many answers the client cut off before they finished (a cancelled `SLOW` turn). */
  disconnects(): number;
  waitForDisconnects(n: number): Promise<void>;
  close(): Promise<void>;
};

let calls = 0;
const callId = (): string => `call_fake${(calls += 1).toString(36)}`;

/** A reply as a Responses turn: the text message first, then the function call. */
export function responsesTurnOf(reply: AgentReply): ResponsesFakeTurn {
  const events: ResponsesFakeEvent[] = [];
  if (reply.text !== undefined)
    events.push({ kind: 'text', pieces: textPieces(reply.text, reply.chunkSize), pauseMs: reply.chunkDelayMs });
  if (reply.toolCall)
    events.push({
      kind: 'functionCall',
      callId: callId(),
      name: reply.toolCall.name,
      ...(reply.toolCall.namespace ? { namespace: reply.toolCall.namespace } : {}),
      arguments: JSON.stringify(reply.toolCall.args),
    });
  return { events };
}

/** A reply as a chat-completions turn: the role, text deltas (paced), then one tool call; usage last. */
export function chatTurnOf(reply: AgentReply): OpenAIFakeTurn {
  const role: OpenAIFakeEvent = { kind: 'delta', delta: { role: 'assistant', content: '' } };
  const text: OpenAIFakeEvent[] = textPieces(reply.text ?? '', reply.chunkSize)
    .filter((t) => t !== '')
    .flatMap((t): OpenAIFakeEvent[] => [
      ...(reply.chunkDelayMs ? [{ kind: 'pause' as const, ms: reply.chunkDelayMs }] : []),
      { kind: 'text', text: t },
    ]);
  if (reply.toolCall) {
    const call = openaiToolCallTurn({
      id: callId(),
      name: reply.toolCall.name,
      argPieces: [JSON.stringify(reply.toolCall.args)],
    });
    return 'events' in call ? { events: [role, ...text, ...call.events] } : call;
  }
  return {
    events: [role, ...text, { kind: 'finish', reason: 'stop' }, { kind: 'usage', prompt: 11, completion: text.length }],
  };
}

/** A reply as a Gemini turn: text pieces (paced), then one function call. */
export function geminiTurnOf(reply: AgentReply): GeminiFakeTurn {
  const events: GeminiFakeEvent[] = [];
  if (reply.text !== undefined)
    events.push({ kind: 'text', pieces: textPieces(reply.text, reply.chunkSize), pauseMs: reply.chunkDelayMs });
  if (reply.toolCall) events.push({ kind: 'functionCall', name: reply.toolCall.name, args: reply.toolCall.args });
  return { events };
}

/** Starts the fake model for `api` on 127.0.0.1 with `options.script` (default {@link defaultAgentScript}). */
export async function startAgentModelServer(
  api: AgentModelApi,
  options: { script?: AgentScript } = {},
): Promise<AgentModelServer> {
  let script = options.script ?? defaultAgentScript;
  const answered: AgentCall[] = [];
  const decide = async (request: AgentRequest): Promise<AgentReply> => {
    const reply = await script(request);
    answered.push({ request, reply });
    return reply;
  };
  const server =
    api === 'responses'
      ? await startFakeOpenAIResponsesServer({
          script: async (r) => responsesTurnOf(await decide(responsesAgentRequest(r.body))),
        })
      : api === 'chat'
        ? await startFakeOpenAIServer({ script: async (r) => chatTurnOf(await decide(chatAgentRequest(r.body))) })
        : await startFakeGeminiServer({
            script: async (r) => {
              const route = geminiRoute(r) ?? { model: '', stream: false };
              return geminiTurnOf(await decide(geminiAgentRequest(r.body, route.stream, route.model)));
            },
          });
  return {
    api,
    origin: server.origin,
    baseUrl: server.baseURL,
    calls: answered,
    requests: server.requests,
    scriptErrors: server.scriptErrors,
    setScript: (next) => {
      script = next;
    },
    disconnects: () => server.disconnects(),
    waitForDisconnects: (n) => server.waitForDisconnects(n),
    close: () => server.close(),
  };
}
