import { describe, expect, it } from 'vitest';
import type { ChatEvent, ChatEventListener } from '../../../ccexec/chat-states.js';
import { AppError } from '../../../core/app-error.js';
import { silentLogger } from '../../../core/logger.js';
import { ConsoleChats, type ChatItem } from './console-chats.js';
import type { ConsoleChatSession, ConsoleGateway } from './console-gateway.js';
import type { ConsoleEvent } from './event-hub.js';

type Script = (emit: ChatEventListener) => Promise<void>;

/** A gateway whose chats replay a scripted list of events. */
function fakeGateway(script: Script): ConsoleGateway {
  return {
    availability: async () => ({ status: 'available', reason: '' }),
    cli: async () => ({ status: 'available', reason: '' }),
    providers: () => [{ id: 'p', label: 'P', model: 'm', tools: true }],
    audit: async () => [],
    newChat: () => {
      let running = false;
      const session: ConsoleChatSession = {
        id: `chat-${Math.random().toString(16).slice(2)}`,
        provider: { id: 'p', model: 'm', supportsTools: true },
        get running() {
          return running;
        },
        cancel: () => undefined,
        async run(_text, { onEvent }) {
          running = true;
          try {
            await script(onEvent);
          } finally {
            running = false;
          }
        },
      };
      return session;
    },
  };
}

const base = { runId: 'r', at: 0 };
const call = {
  callId: 'c1',
  commandLine: 'cc note list --limit 10',
  argv: ['note', 'list', '--limit', '10'],
  round: 1,
};
const settle = () => new Promise((r) => setTimeout(r, 120));

describe('ConsoleChats', () => {
  it('keeps one item per tool call through its states and splits assistant text around it', async () => {
    const events: ConsoleEvent[] = [];
    const stdout = Array.from({ length: 9 }, (_, i) => `line ${i}`).join('\n');
    const chats = new ConsoleChats(
      fakeGateway(async (emit) => {
        const e = (ev: ChatEvent) => emit(ev);
        e({ ...base, type: 'THINKING' });
        e({ ...base, type: 'text', delta: 'Let me **check**' });
        e({ ...base, ...call, type: 'TOOL_CALLED' });
        e({ ...base, ...call, type: 'TOOL_RUNNING', startedAt: Date.now(), timeoutMs: 30_000 });
        e({
          ...base,
          ...call,
          type: 'TOOL_DONE',
          decision: 'allowed',
          exitCode: 0,
          durationMs: 12,
          preview: stdout.split('\n').slice(0, 6).join('\n'),
          stdout,
          stderr: '',
        });
        e({ ...base, type: 'FINALIZING', round: 1 });
        e({ ...base, type: 'text', delta: '<b>done</b>' });
        e({ ...base, type: 'COMPLETE', answer: 'x', toolCalls: 1, durationMs: 30 });
      }),
      (ev) => events.push(ev),
      silentLogger,
    );
    const chat = chats.create({});
    expect(chats.send(chat.id, 'hi')).toBe('started');
    await settle();
    const view = chats.get(chat.id);
    expect(view?.running).toBe(false);
    expect(view?.items.map((i) => i.kind)).toEqual(['user', 'assistant', 'tool', 'assistant', 'end']);
    const tool = view?.items[2] as Extract<ChatItem, { kind: 'tool' }>;
    expect(tool).toMatchObject({
      state: 'TOOL_DONE',
      exitCode: 0,
      expandable: true,
      commandLine: 'cc note list --limit 10',
    });
    const toolEvents = events
      .filter((e) => e.type === 'chat.item' && (e.data as { item: ChatItem }).item.kind === 'tool')
      .map((e) => (e.data as { item: Extract<ChatItem, { kind: 'tool' }> }).item);
    expect(toolEvents.map((i) => i.state)).toEqual(['TOOL_CALLED', 'TOOL_RUNNING', 'TOOL_DONE']);
    expect(new Set(toolEvents.map((i) => i.id)).size).toBe(1);
    expect(chats.output(chat.id, tool.id)).toEqual({ stdout, stderr: '' });
    expect((view?.items[1] as { html: string }).html).toBe('<p>Let me <strong>check</strong></p>');
    expect((view?.items[3] as { html: string }).html).toBe('<p>&lt;b&gt;done&lt;/b&gt;</p>');
    expect(view?.items[4]).toMatchObject({ kind: 'end', state: 'COMPLETE' });
  });

  it('refuses a second question while one runs, and ends a rejected run visibly as FAILED', async () => {
    let release: () => void = () => undefined;
    const chats = new ConsoleChats(
      fakeGateway(async (emit) => {
        emit({ ...base, type: 'THINKING' });
        await new Promise<void>((r) => (release = r));
        throw new AppError('CCEXEC_BUSY', 'busy elsewhere');
      }),
      () => undefined,
      silentLogger,
    );
    const chat = chats.create({});
    expect(chats.send(chat.id, 'one')).toBe('started');
    expect(chats.send(chat.id, 'two')).toBe('busy');
    expect(chats.send('nope', 'x')).toBe('missing');
    release();
    await settle();
    expect(chats.get(chat.id)?.items.at(-1)).toMatchObject({ kind: 'end', state: 'FAILED', message: 'busy elsewhere' });
    expect(chats.send(chat.id, 'three')).toBe('started');
    release();
  });
});
