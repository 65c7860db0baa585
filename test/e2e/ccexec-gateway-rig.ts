// The shared rig of the cc_exec end-to-end tests: a gateway harness per test (closed, and every
// process group it started killed, after each), and readers of what the model and the page saw.
import { afterEach } from 'vitest';
import type { ChatEvent } from '../../src/ccexec/chat-states.js';
import { createGateway } from '../../src/ccexec/create-gateway.js';
import { killGroups } from '../fakes/fake-children.js';
import {
  harnessLogger,
  startGatewayHarness,
  type GatewayHarness,
} from '../fakes/fake-chainlesschain/gateway-harness.js';

/** Registers the per-test cleanup; `setup()` starts a harness and its gateway, `groups` collects process groups to kill. */
export function useGateway() {
  let h: GatewayHarness | undefined;
  const groups = new Set<number>();
  afterEach(async () => {
    killGroups(groups);
    groups.clear();
    await h?.close();
    h = undefined;
  });
  async function setup(options: Parameters<typeof startGatewayHarness>[0] = {}) {
    h = await startGatewayHarness(options);
    const gateway = createGateway({ config: h.config, paths: h.paths, env: h.env, lang: 'zh', logger: harnessLogger });
    return { h, gateway };
  }
  return { setup, groups };
}

export const cc = (command: string, subargs: string[]) => JSON.stringify({ command, subargs });
/** Splits a JSON argument string into 3 pieces, as OpenAI streams them. */
export const pieces = (json: string) => [json.slice(0, 5), json.slice(5, 17), json.slice(17)];
export const states = (events: readonly ChatEvent[]) =>
  events.filter((e) => /^[A-Z_]+$/.test(e.type)).map((e) => e.type);
export const cards = (events: readonly ChatEvent[]) =>
  events.filter((e): e is Extract<ChatEvent, { type: 'TOOL_DONE' }> => e.type === 'TOOL_DONE');
type WireMessage = { role: string; content?: unknown; tool_call_id?: string };
export const openaiMessages = (harness: GatewayHarness, i: number) =>
  (harness.openai.requests[i]?.body as { messages: WireMessage[]; tools?: unknown[] }) ?? { messages: [] };
