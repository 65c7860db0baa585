import type { AgentRequest, OfferedTool } from './agent-script.js';

/**
 * Reduces one model request of each wire API to the {@link AgentRequest} the agent script reads.
 * Unknown shapes are skipped, never thrown on: an agent's extra items must not break the fake.
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Text of a content value: a string, or the `text` of each part (`input_text`, `text`, `output_text` …). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return list(content)
    .map((p) => str(p.text))
    .filter((t) => t !== '')
    .join('\n');
}

/** One conversation step, whatever the API: user text, or a tool output. */
type Step = { kind: 'user'; text: string } | { kind: 'tool'; output: string };

function digest(
  api: AgentRequest['api'],
  body: Obj,
  steps: Step[],
  tools: OfferedTool[],
  stream: boolean,
): AgentRequest {
  const userTexts = steps.flatMap((s) => (s.kind === 'user' ? [s.text] : []));
  let lastUser = -1;
  steps.forEach((s, i) => {
    if (s.kind === 'user') lastUser = i;
  });
  const toolResults = steps.slice(lastUser + 1).flatMap((s) => (s.kind === 'tool' ? [s.output] : []));
  return {
    api,
    model: str(body.model),
    stream,
    lastUserText: userTexts.at(-1) ?? '',
    toolResults,
    userTexts,
    tools,
  };
}

function withSchema(req: AgentRequest, schema: unknown): AgentRequest {
  return isObj(schema) ? { ...req, jsonSchema: schema } : req;
}

/** OpenAI Responses (`POST /v1/responses`): `input` as a string, or `input[]` messages and `function_call_output` items. */
export function responsesAgentRequest(body: unknown): AgentRequest {
  const b = isObj(body) ? body : {};
  const steps: Step[] = typeof b.input === 'string' ? [{ kind: 'user', text: b.input }] : [];
  for (const item of list(b.input)) {
    if ((item.type === 'message' || item.type === undefined) && item.role === 'user') {
      const text = textOf(item.content);
      if (text !== '') steps.push({ kind: 'user', text });
    } else if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') {
      steps.push({ kind: 'tool', output: typeof item.output === 'string' ? item.output : textOf(item.output) });
    }
  }
  const tools = list(b.tools)
    .filter((t) => typeof t.name === 'string')
    .map((t) => ({ name: str(t.name), parameters: isObj(t.parameters) ? t.parameters : undefined }));
  return digest('responses', b, steps, tools, b.stream === true);
}

/** OpenAI chat completions (`POST /v1/chat/completions`): `messages[]` with `user` and `tool` roles. */
export function chatAgentRequest(body: unknown): AgentRequest {
  const b = isObj(body) ? body : {};
  const steps: Step[] = [];
  for (const m of list(b.messages)) {
    if (m.role === 'user') {
      const text = textOf(m.content);
      if (text !== '') steps.push({ kind: 'user', text });
    } else if (m.role === 'tool') {
      steps.push({ kind: 'tool', output: textOf(m.content) });
    }
  }
  const tools = list(b.tools)
    .map((t) => (isObj(t.function) ? t.function : t))
    .filter((f) => typeof f.name === 'string')
    .map((f) => ({ name: str(f.name), parameters: isObj(f.parameters) ? f.parameters : undefined }));
  const format = isObj(b.response_format) && isObj(b.response_format.json_schema) ? b.response_format.json_schema : {};
  return withSchema(digest('chat', b, steps, tools, b.stream === true), format.schema);
}

/**
 * Gemini API (`models/<m>:generateContent` or `:streamGenerateContent`): `contents[]` whose user
 * turns hold text parts or `functionResponse` parts; tools in `tools[].functionDeclarations`.
 */
export function geminiAgentRequest(body: unknown, stream: boolean, model: string): AgentRequest {
  const b = isObj(body) ? body : {};
  const steps: Step[] = [];
  for (const c of list(b.contents)) {
    if (c.role !== 'user' && c.role !== undefined) continue;
    const parts = list(c.parts);
    const text = parts
      .map((p) => str(p.text))
      .filter((t) => t !== '')
      .join('\n');
    if (text !== '') steps.push({ kind: 'user', text });
    for (const p of parts) {
      if (!isObj(p.functionResponse)) continue;
      const response = p.functionResponse.response;
      const output =
        isObj(response) && typeof response.output === 'string' ? response.output : JSON.stringify(response);
      steps.push({ kind: 'tool', output });
    }
  }
  const tools = list(b.tools)
    .flatMap((t) => list(t.functionDeclarations))
    .filter((f) => typeof f.name === 'string')
    .map((f) => {
      const schema = isObj(f.parametersJsonSchema) ? f.parametersJsonSchema : f.parameters;
      return { name: str(f.name), parameters: isObj(schema) ? schema : undefined };
    });
  const config = isObj(b.generationConfig) ? b.generationConfig : {};
  return withSchema(
    digest('gemini', { ...b, model }, steps, tools, stream),
    config.responseJsonSchema ??
      config.responseSchema ??
      (config.responseMimeType === 'application/json' ? {} : undefined),
  );
}
