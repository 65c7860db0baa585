import type { ChatEventListener } from '../../../ccexec/chat-states.js';

/**
 * What the console needs from the cc_exec gateway — narrow on purpose, so the chat page is tested
 * with the real gateway and with hand-written fakes alike. `consoleGatewayFrom` (beside this file)
 * adapts `createGateway()`'s result; the lead passes that to `startWebConsole({ gateway })`.
 */
export interface ConsoleGateway {
  /**
   * Whether `cc_exec` is offered to a chat with `target` (default provider when absent): the CLI's
   * state (checked once, cached by the gateway) or `no-tools-for-model`, with the reason text the
   * badge shows.
   */
  availability(target?: { provider?: string; model?: string }): Promise<ConsoleToolAvailability>;
  /** The ChainlessChain CLI's own state, whatever the model (the status page): checked once, cached. */
  cli(): Promise<ConsoleCliStatus>;
  /** The configured chat models, for the picker; `tools` false = plain chat (no cc_exec). */
  providers(): ConsoleProvider[];
  /** A new conversation with one model (the default provider when `provider` is absent). */
  newChat(opts?: { provider?: string; model?: string }): ConsoleChatSession;
  /** The newest tool calls of the audit log (`~/.cc-linker/ccexec/audit.jsonl`), newest first. */
  audit(limit: number): Promise<ConsoleAuditRecord[]>;
}

/** One entry of the model picker. */
export interface ConsoleProvider {
  id: string;
  label: string;
  model: string;
  tools: boolean;
}

/**
 * The tool badge: available / this model has no tools / CLI too old / CLI not found / CLI broken /
 * no provider configured — always with the user-facing `reason`.
 */
export interface ConsoleToolAvailability {
  status: 'available' | 'no-tools-for-model' | 'cli-too-old' | 'cli-not-found' | 'cli-broken' | 'no-provider';
  reason: string;
  version?: string;
  /** `no-tools-for-model`: the provider, and why — `config` (`tools = false`) or `rejected` (its server refused tools). */
  provider?: string;
  why?: 'config' | 'rejected';
}

/** The CLI's state: `available`, or why it cannot run (with what to do, in `reason`). */
export interface ConsoleCliStatus {
  status: 'available' | 'cli-too-old' | 'cli-not-found' | 'cli-broken';
  reason: string;
  version?: string;
}

/** One conversation (the gateway's `ChatSession`, reduced to what the page drives). */
export interface ConsoleChatSession {
  readonly id: string;
  readonly provider: { readonly id: string; readonly model: string; readonly supportsTools: boolean };
  readonly running: boolean;
  /** Answers one question; resolves on COMPLETE / FAILED / CANCELLED, never rejects for model or CLI failures. */
  run(text: string, options: { signal?: AbortSignal; onEvent: ChatEventListener }): Promise<unknown>;
  /** Cancels the running question: the model request is closed, the CLI's process group killed. */
  cancel(): void;
}

/** An audit line as the page shows it (model-supplied strings are escaped by the page: textContent). */
export interface ConsoleAuditRecord {
  time: string;
  provider: string;
  model: string;
  command: string;
  args: readonly string[];
  decision: string;
  exit: number;
  durationMs: number;
  bytes: number;
  reason?: string;
}
