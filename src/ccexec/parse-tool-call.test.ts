import { describe, expect, it, vi } from 'vitest';
import { parseToolCall } from './parse-tool-call.js';

const parse = (args: unknown, name = 'cc_exec') => parseToolCall({ id: 'c1', name, arguments: args });
const dedupKey = (call: { name: string; arguments: unknown }) => parse(call.arguments, call.name).dedupKey;

describe('parseToolCall', () => {
  it('reads a well-formed call into the request the gate judges and the argv the card shows', () => {
    expect(parse('{"command":"note","subargs":["list","--limit","10"]}')).toEqual({
      id: 'c1',
      name: 'cc_exec',
      text: '{"command":"note","subargs":["list","--limit","10"]}',
      argv: ['note', 'list', '--limit', '10'],
      request: { ok: true, command: 'note', subargs: ['list', '--limit', '10'] },
      dedupKey: 'cc_exec\u0000{"command":"note","subargs":["list","--limit","10"]}',
    });
  });

  it('leaves subargs that are not strings to the gate, with no argv to show', () => {
    const call = parse({ command: 'note', subargs: 'list' });
    expect(call.request).toEqual({ ok: true, command: 'note', subargs: 'list' });
    expect(call.argv).toBeNull();
    expect(call.text).toBe('');
  });

  it('still shows what an invalid call asked for when command and subargs are readable', () => {
    const call = parse('{"command":"note","subargs":["list"],"cwd":"/"}');
    expect(call.request).toEqual({ ok: false, reason: "unexpected field 'cwd'; only command and subargs are allowed" });
    expect(call.argv).toEqual(['note', 'list']);
  });

  it('answers text that is not JSON with a reason, keyed by its raw text', () => {
    const call = parse('{"command":"note",');
    expect(call).toMatchObject({ argv: null, request: { ok: false, reason: 'arguments are not valid JSON' } });
    expect(call.text).toBe('{"command":"note",');
  });

  it('never invokes a getter on the arguments, for the request, the argv or the key', () => {
    const getter = vi.fn(() => 'note');
    const call = parse(Object.defineProperty({ subargs: ['list'] }, 'command', { get: getter, enumerable: true }));
    expect(call.request).toEqual({ ok: false, reason: 'missing field command' });
    expect(call.argv).toBeNull();
    expect(call.dedupKey).toBe('cc_exec\u0000{"subargs":["list"]}');
    expect(getter).not.toHaveBeenCalled();
  });

  it('never throws, and arguments that cannot be read are never a duplicate of each other', () => {
    const hostile = () =>
      new Proxy(
        {},
        {
          ownKeys: () => {
            throw new Error('trap');
          },
        },
      );
    const a = parse(hostile());
    const b = parse(hostile());
    expect(a.request).toEqual({ ok: false, reason: 'arguments could not be read' });
    expect(a.argv).toBeNull();
    expect(a.dedupKey).not.toBe(b.dedupKey);
  });
});

describe('dedupKey', () => {
  it('is the same for reordered keys and different for different values', () => {
    expect(dedupKey({ name: 'cc_exec', arguments: '{"a":1,"b":{"y":2,"x":1}}' })).toBe(
      dedupKey({ name: 'cc_exec', arguments: '{"b":{"x":1,"y":2},"a":1}' }),
    );
    expect(dedupKey({ name: 'cc_exec', arguments: '{"a":1}' })).not.toBe(
      dedupKey({ name: 'cc_exec', arguments: '{"a":2}' }),
    );
    expect(dedupKey({ name: 'cc_exec', arguments: '{"a":1}' })).not.toBe(
      dedupKey({ name: 'other', arguments: '{"a":1}' }),
    );
    expect(dedupKey({ name: 'cc_exec', arguments: '{bad' })).toBe(dedupKey({ name: 'cc_exec', arguments: '{bad' }));
  });

  it('is the same for a JSON string and the equal object, so either form of a repeated call is caught', () => {
    expect(dedupKey({ name: 'cc_exec', arguments: { subargs: ['RAG'], command: 'search' } })).toBe(
      dedupKey({ name: 'cc_exec', arguments: '{"command":"search","subargs":["RAG"]}' }),
    );
  });
});
