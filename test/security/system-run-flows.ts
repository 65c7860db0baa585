/** The user-facing flows of a security run: Feishu (owner, stranger, faults, `/cc`) and the web console. */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { textMessageEvent, type FakeFeishu } from '../fakes/fake-feishu/fake-feishu-server.js';
import {
  anthropicHttpError,
  type FakeAnthropicMessagesServer,
} from '../fakes/fake-llm/fake-anthropic-messages-server.js';
import {
  openaiHttpError,
  openaiTextTurn,
  openaiToolCallTurn,
  type FakeOpenAIServer,
} from '../fakes/fake-llm/fake-openai-server.js';
import type { PlantedSecrets } from './secrets.js';
import { OWNER, REPO, STRANGER, TERMINAL_SESSION, sleep, waitFor, type Capture } from './system-run-parts.js';

export interface RunContext {
  secrets: PlantedSecrets;
  home: string;
  env: NodeJS.ProcessEnv;
  feishu: FakeFeishu;
  openai: FakeOpenAIServer;
  anthropic: FakeAnthropicMessagesServer;
  captures: Capture[];
  notes: string[];
}

/** The console as a signed-in script uses it (Bearer token); every answer is captured. */
function consoleClient(ctx: RunContext, base: string) {
  const auth = { Authorization: `Bearer ${ctx.secrets.webToken}` };
  const call = async (url: string, init: RequestInit = {}) => {
    const r = await fetch(`${base}${url}`, {
      ...init,
      headers: { ...auth, ...(init.headers as Record<string, string> | undefined) },
    });
    const text = await r.text();
    ctx.captures.push({
      label: `web ${init.method ?? 'GET'} ${url} (${r.status})`,
      text: `${[...r.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${text}`,
    });
    return { status: r.status, text };
  };
  const post = (url: string, body: unknown) =>
    call(url, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
  const read = async (url: string) => (await fetch(`${base}${url}`, { headers: auth })).text();
  return { auth, call, post, read };
}

/** Feishu: a conversation, a stranger, faults that echo secrets, Claude failing with its key on stderr, `/cc`. */
export async function feishuFlows(ctx: RunContext): Promise<void> {
  const { feishu, openai, secrets, notes } = ctx;
  const texts = (openId: string) => feishu.messagesTo(openId).map((m) => feishu.textOf(m));
  // A final answer (not a streaming snapshot) carries the footer.
  const answered = (text: string) => () => texts(OWNER).some((t) => t.includes(text) && /轮|openai · /.test(t));

  await feishu.pushEvent(
    textMessageEvent({ openId: OWNER, text: `/new ${path.join(ctx.home, 'Git', 'alpha')} -- 你好 hello` }),
  );
  await waitFor('the first answer', answered('echo: 你好 hello'));
  notes.push('feishu conversation');

  await feishu.pushEvent(textMessageEvent({ openId: STRANGER, text: `/new ${ctx.home}` }));
  await waitFor('the refusal', () => texts(STRANGER).length > 0);
  notes.push('stranger refused');

  const hostile = `internal error near ${secrets.feishuSecret} / ${secrets.webToken} / ${secrets.openaiKey}`;
  const im = { method: 'POST', pathPrefix: '/open-apis/im/v1/messages' };
  feishu.failNext(im, { status: 500, code: 1500, msg: hostile });
  feishu.failNext(im, { status: 429, code: 99991400, msg: hostile });
  feishu.failNext(im, { resetConnection: true });
  feishu.failNext(im, { status: 400, code: 99991663, msg: `token invalid ${secrets.feishuSecret}` });
  feishu.failNext(
    { pathPrefix: '/open-apis/auth/v3' },
    { status: 400, code: 10014, msg: `app secret invalid: ${secrets.feishuSecret}` },
  );
  feishu.failNext({ pathPrefix: '/open-apis/cardkit' }, { status: 500, code: 1500, msg: hostile, times: 2 });
  await feishu.pushEvent(textMessageEvent({ openId: OWNER, text: '第二条 second' }));
  await waitFor('the answer despite faults', answered('echo: 第二条 second'), 45_000);
  notes.push('feishu faults');

  await feishu.pushEvent(textMessageEvent({ openId: OWNER, text: 'leak the key please' }));
  await waitFor(
    'the error card of the failing Claude run',
    () => texts(OWNER).some((t) => t.includes('Invalid API key')),
    30_000,
  );
  notes.push('claude failure');

  openai.enqueue(
    openaiToolCallTurn({
      id: 'call_cc1',
      name: 'cc_exec',
      argPieces: ['{"command":"note",', '"subargs":["list","--limit","5"]}'],
    }),
    openaiTextTurn('你有 3 条笔记。'),
  );
  await feishu.pushEvent(textMessageEvent({ openId: OWNER, text: '/cc 列一下最近的笔记' }));
  await waitFor('the /cc card', answered('你有 3 条笔记'), 30_000);
  notes.push('feishu /cc');
}

/** The console: provider errors that echo keys, a chat with tool calls, bridge messages and /new, every GET route. */
export async function webFlows(ctx: RunContext, base: string): Promise<void> {
  const { openai, anthropic, secrets, notes, captures } = ctx;
  const web = consoleClient(ctx, base);
  const chatDone = async (id: string) => {
    let view = '';
    await waitFor(
      `web chat ${id} to end`,
      async () => {
        view = await web.read(`/api/chats/${id}`);
        return (JSON.parse(view) as { running: boolean }).running === false && view.includes('"kind":"end"');
      },
      30_000,
    );
    captures.push({ label: `web chat ${id}`, text: view });
    return view;
  };

  // Provider 401/403s that echo the key (as OpenAI does), for every provider family.
  openai.enqueue(
    openaiHttpError(
      401,
      `Incorrect API key provided: ${secrets.openaiKey}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      'invalid_api_key',
    ),
  );
  openai.enqueue(
    openaiHttpError(401, `The API key ${secrets.arkKey} is invalid for region cn-beijing`, 'AuthenticationError'),
  );
  openai.enqueue(openaiHttpError(403, `key ${secrets.acmeKey} forbidden`, 'forbidden'));
  anthropic.enqueue(anthropicHttpError(401, 'authentication_error', `invalid x-api-key ${secrets.anthropicKey}`));
  for (const provider of ['openai', 'doubao', 'acme', 'anthropic']) {
    const { id } = JSON.parse((await web.post('/api/chats', { provider })).text) as { id: string };
    await web.post(`/api/chats/${id}/send`, { text: `hello ${provider}` });
    await chatDone(id);
  }
  notes.push('provider 401s');

  // A chat with tool calls (one allowed, one denied), then a 5xx that echoes keys.
  openai.enqueue(
    openaiToolCallTurn({ id: 'call_w1', name: 'cc_exec', argPieces: ['{"command":"note","subargs":["list"]}'] }),
    openaiToolCallTurn({
      id: 'call_w2',
      name: 'cc_exec',
      argPieces: ['{"command":"note","subargs":["delete","--all"]}'],
    }),
    openaiTextTurn('done'),
    openaiHttpError(500, `upstream failed for key ${secrets.openaiKey} and ${secrets.acmeKey}`, 'server_error'),
  );
  const chat = JSON.parse((await web.post('/api/chats', { provider: 'openai' })).text) as { id: string };
  await web.post(`/api/chats/${chat.id}/send`, { text: '列一下笔记' });
  const view = await chatDone(chat.id);
  for (const toolId of [...view.matchAll(/"kind":"tool","id":"([\w-]+)"/g)].map((x) => x[1] as string))
    await web.call(`/api/chats/${chat.id}/tools/${toolId}`);
  await web.post(`/api/chats/${chat.id}/send`, { text: 'again' });
  await chatDone(chat.id);
  notes.push('web chat with tools');

  // The bridge from the console: /new with a directory and a prompt, then a message to that session.
  type View = { kind: string; streaming: boolean; html?: string };
  const consoleSays = async (what: string) => {
    const final = (m: View) =>
      m.kind === 'reply' && !m.streaming && (m.html ?? '').includes(what) && (m.html ?? '').includes('card-footer');
    try {
      await waitFor(
        what,
        async () => (JSON.parse(await web.read('/api/bridge/messages')) as { messages: View[] }).messages.some(final),
        30_000,
      );
    } catch (err) {
      throw new Error(`${(err as Error).message}; the console shows: ${await web.read('/api/bridge/messages')}`);
    }
  };
  await web.post('/api/sessions/new', {
    id: randomUUID(),
    dir: path.join(ctx.home, 'Git', 'beta'),
    prompt: 'start here',
  });
  await consoleSays('echo: start here');
  await web.post('/api/bridge/messages', { id: randomUUID(), text: 'hello from the console' });
  await consoleSays('echo: hello from the console');
  notes.push('console bridge');

  // Every GET route and page, the event stream, and what a visitor without the token sees.
  const uiFiles = fs
    .readdirSync(path.join(REPO, 'src', 'channels', 'web', 'ui'))
    .filter((f) => !f.endsWith('.test.js'));
  const pages = [
    '/',
    '/index.html',
    ...uiFiles.map((f) => `/assets/${f}`),
    '/api/status',
    '/api/chat/providers',
    '/api/chat/availability',
    '/api/chat/availability?provider=anthropic',
    '/api/chats',
    '/api/audit?limit=500',
    '/api/sessions',
    `/api/sessions/${TERMINAL_SESSION}`,
    '/api/dirs',
    `/api/dirs?path=${encodeURIComponent(path.join(ctx.home, 'Git'))}`,
    '/api/bridge/messages',
    '/api/nope',
  ];
  for (const url of pages) await web.call(url);
  const events = new AbortController();
  const sse = await fetch(`${base}/api/events`, { headers: web.auth, signal: events.signal });
  const reader = sse.body?.getReader();
  const first = reader ? await Promise.race([reader.read(), sleep(4000).then(() => null)]) : null;
  captures.push({ label: 'web GET /api/events', text: first?.value ? Buffer.from(first.value).toString('utf8') : '' });
  events.abort();
  for (const url of ['/', '/api/status']) {
    const r = await fetch(`${base}${url}`, { headers: { Accept: 'text/html' } });
    captures.push({ label: `web GET ${url} without token`, text: await r.text() });
  }
  notes.push('web pages');
}

/** Builds the run's directories, fakes and config; then drives every flow. Call `cleanup()` after. */
