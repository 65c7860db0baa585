import { quoteForReason } from './gate.js';

/**
 * One tool call as the provider layer delivers it. `arguments` is normally the JSON text the model
 * sent; an already-decoded object is accepted too, since some models and servers send one.
 */
export interface ToolCallInput {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
}

/**
 * What the gate judges: the command and the raw `subargs` (the gate itself checks that they are an
 * array of strings) — or why the arguments are not a `{command, subargs}` object at all (exit 64).
 */
export type CallRequest =
  | { readonly ok: true; readonly command: string; readonly subargs: unknown }
  | { readonly ok: false; readonly reason: string };

/**
 * A model's tool call, read once when it arrives. The tool loop, the dispatcher and the audit record
 * all take what they need from here; nobody parses the arguments again.
 */
export interface ParsedToolCall {
  readonly id: string;
  readonly name: string;
  /** The arguments as the model sent them ('' when they came as an object): the card shows them when `argv` is null. */
  readonly text: string;
  /**
   * `[command, ...subargs]` whenever both are readable strings — even when `request` is refused for
   * another reason such as an extra field — so the card and the audit log show what the model asked
   * for. Model-supplied: escape before rendering.
   */
  readonly argv: readonly string[] | null;
  readonly request: CallRequest;
  /**
   * Equal for identical calls: the name plus the arguments' JSON with object keys sorted at every
   * level, or the raw text when it is not JSON. Arguments that cannot be read at all never match.
   */
  readonly dedupKey: string;
}

const MISSING = Symbol('missing');
let unreadable = 0;

/**
 * Reads a tool call's arguments once, safely: exactly the fields `command` and `subargs`, taken from
 * own data properties only (a getter is never invoked, an inherited field counts as missing), and a
 * `__proto__` key stays an inert field that makes the call invalid. Never throws.
 *
 * @example
 *   parseToolCall({ id: 'c1', name: 'cc_exec', arguments: '{"subargs":["list"],"command":"note"}' })
 *   // { argv: ['note', 'list'], request: { ok: true, command: 'note', subargs: ['list'] },
 *   //   dedupKey: 'cc_exec\u0000{"command":"note","subargs":["list"]}', … }
 */
export function parseToolCall(call: ToolCallInput): ParsedToolCall {
  const raw = call.arguments;
  const text = typeof raw === 'string' ? raw : '';
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return {
        id: call.id,
        name: call.name,
        text,
        argv: null,
        request: { ok: false, reason: 'arguments are not valid JSON' },
        dedupKey: `${call.name}\u0000\u0001${raw}`,
      };
    }
  }
  return {
    id: call.id,
    name: call.name,
    text,
    argv: readableArgv(value),
    request: readRequest(value),
    dedupKey: keyOf(call.name, value, raw),
  };
}

function readRequest(value: unknown): CallRequest {
  const invalid = (reason: string): CallRequest => ({ ok: false, reason });
  try {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return invalid('arguments must be a JSON object with command and subargs');
    for (const key of Reflect.ownKeys(value)) {
      if (key !== 'command' && key !== 'subargs') {
        const shown = typeof key === 'string' ? quoteForReason(key) : 'symbol';
        return invalid(`unexpected field ${shown}; only command and subargs are allowed`);
      }
    }
    const command = ownValue(value, 'command');
    const subargs = ownValue(value, 'subargs');
    if (command === MISSING) return invalid('missing field command');
    if (subargs === MISSING) return invalid('missing field subargs');
    if (typeof command !== 'string') return invalid('command must be a string');
    return { ok: true, command, subargs };
  } catch {
    return invalid('arguments could not be read');
  }
}

function readableArgv(value: unknown): string[] | null {
  try {
    if (value === null || typeof value !== 'object') return null;
    const command = ownValue(value, 'command');
    const subargs = ownValue(value, 'subargs');
    if (typeof command !== 'string' || !Array.isArray(subargs) || !subargs.every((a) => typeof a === 'string'))
      return null;
    return [command, ...(subargs as string[])];
  } catch {
    return null;
  }
}

function keyOf(name: string, value: unknown, raw: unknown): string {
  try {
    return `${name}\u0000${JSON.stringify(sortedKeys(value))}`;
  } catch {
    return typeof raw === 'string' ? `${name}\u0000\u0001${raw}` : `${name}\u0000\u0002${++unreadable}`;
  }
}

/** A copy with object keys sorted at every level; accessors are left out (never invoked). */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const field = ownValue(value, key);
    if (field === MISSING) continue;
    // defineProperty, not assignment: a `__proto__` key stays a plain field.
    Object.defineProperty(out, key, { value: sortedKeys(field), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The value of an own data property, or MISSING; accessors count as missing (never invoked). */
function ownValue(object: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  return descriptor && 'value' in descriptor ? descriptor.value : MISSING;
}
