import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BridgeInbound } from '../../../bridge/channel.js';
import type { BridgeStatus } from '../../../bridge/commands/command-context.js';
import { checkWorkingDirectory, type DirSafetyOptions } from '../../../bridge/commands/dir-safety.js';
import type { Language } from '../../../core/i18n.js';
import { HttpError, MAX_JSON_BODY, readBody, sendJson } from '../http/http-io.js';
import { httpMessages } from '../http/http-messages.js';
import { renderMarkdown } from '../render-markdown.js';
import { WebChannel, WEB_USER_ID } from '../web-channel.js';
import type { ConsoleAgents } from './console-agents.js';
import type { ConsoleChats } from './console-chats.js';
import type { ConsoleGateway } from './console-gateway.js';
import { consoleMessages } from './console-messages.js';
import type { ConsoleSessions, SessionFilter } from './console-sessions.js';
import type { ConsoleWorkspace } from './console-workspace.js';
import type { EventHub } from './event-hub.js';
import { listPickerDirs } from './list-picker-dirs.js';
import { intParam, MAX_TEXT, optString, requireText, requireUuid, textBeside } from './request-params.js';
import { statusBody } from './status-body.js';
import { FILE_ROUTES, fileIds, takeAttachments, type FileRouteContext } from './upload-routes.js';
import { sendTranscriptImage, transcriptBody } from './transcript-routes.js';

/** A bridge as the console uses it: the inbound seam plus the status view. */
export type ConsoleBridge = BridgeInbound & { status(): Promise<BridgeStatus> };

/** Everything the API handlers share (the config, the outbox, the uploads and the sent files' copies among them). */
export interface ApiContext extends FileRouteContext {
  lang: Language;
  bridge: ConsoleBridge | null;
  gateway: ConsoleGateway;
  sessions: ConsoleSessions;
  /** The agents the daemon runs (Claude Code alone when it has no `[agents]`). */
  agents: ConsoleAgents;
  chats: ConsoleChats;
  hub: EventHub;
  dirPolicy: DirSafetyOptions;
  /** A session's directory: changed files per turn, git status, the file browser (absent: 404). */
  workspace?: ConsoleWorkspace;
}

/**
 * One matched API request. `lang` is the page's language (header `X-Console-Lang`), for error
 * text; `client` names who asks (a login, or every bearer-token script), for per-client caps.
 */
interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: string[];
  lang: Language;
  client: string;
}

type Handler = (ctx: ApiContext, call: Call) => Promise<unknown>;

/**
 * The console's JSON API (every route already authorised by http/web-server.ts; POSTs already passed
 * the same-origin check). Handlers return the JSON body; `HttpError` sets another status. Nothing
 * returned ever contains the token or another secret — config is never echoed.
 */
const ROUTES: Array<{ method: 'GET' | 'POST'; path: RegExp; handler: Handler }> = [
  {
    method: 'GET',
    path: /^\/api\/events$/,
    handler: async (ctx, c) => {
      // Past the cap the new stream is refused; the client's open streams are left as they are.
      if (!ctx.hub.attach(c.res, c.client))
        throw new HttpError(429, consoleMessages(c.lang)('tooManyStreams', { max: ctx.hub.maxPerClient }));
    },
  },
  { method: 'GET', path: /^\/api\/status$/, handler: async (ctx) => statusBody(ctx) },
  // The page's default language is `general.language`; its toggle overrides it for one browser. The
  // file limits let the composer refuse a file before uploading it (the server still checks).
  {
    method: 'GET',
    path: /^\/api\/settings$/,
    handler: async (ctx) => ({
      language: ctx.lang,
      files: { enabled: ctx.config.files.enabled, maxBytes: ctx.config.files.max_size_bytes },
    }),
  },
  {
    method: 'GET',
    path: /^\/api\/chat\/providers$/,
    handler: async (ctx) => ({
      providers: ctx.gateway.providers(),
      defaultProvider: ctx.config.ccexec.default_provider || null,
    }),
  },
  {
    method: 'GET',
    path: /^\/api\/chat\/availability$/,
    handler: async (ctx, c) => {
      const pick = (k: string) => (c.url.searchParams.get(k) ?? '').slice(0, 200) || undefined;
      const provider = pick('provider');
      const model = pick('model');
      return ctx.gateway.availability({ ...(provider ? { provider } : {}), ...(model ? { model } : {}) });
    },
  },
  { method: 'GET', path: /^\/api\/chats$/, handler: async (ctx) => ({ chats: ctx.chats.list() }) },
  {
    method: 'POST',
    path: /^\/api\/chats$/,
    handler: async (ctx, c) => {
      const body = await json(c);
      const provider = optString(body.provider, 'provider', c.lang);
      const model = optString(body.model, 'model', c.lang);
      if (provider && !ctx.gateway.providers().some((p) => p.id === provider))
        throw new HttpError(400, consoleMessages(c.lang)('unknownProvider', { id: provider }));
      return ctx.chats.create({ ...(provider ? { provider } : {}), ...(model ? { model } : {}) });
    },
  },
  {
    method: 'GET',
    path: /^\/api\/chats\/([\w-]{1,80})$/,
    handler: async (ctx, c) => ctx.chats.get(c.params[0] as string) ?? notFound(c, 'chatNotFound'),
  },
  {
    method: 'POST',
    path: /^\/api\/chats\/([\w-]{1,80})\/send$/,
    handler: async (ctx, c) => {
      const text = requireText((await json(c)).text, c.lang);
      const r = ctx.chats.send(c.params[0] as string, text);
      if (r === 'missing') notFound(c, 'chatNotFound');
      if (r === 'busy') throw new HttpError(409, consoleMessages(c.lang)('chatBusy'));
      c.res.statusCode = 202;
      return { status: r };
    },
  },
  {
    method: 'POST',
    path: /^\/api\/chats\/([\w-]{1,80})\/cancel$/,
    handler: async (ctx, c) => ({ cancelled: ctx.chats.cancel(c.params[0] as string) || notFound(c, 'chatNotFound') }),
  },
  {
    method: 'GET',
    path: /^\/api\/chats\/([\w-]{1,80})\/tools\/([\w-]{1,80})$/,
    handler: async (ctx, c) =>
      ctx.chats.output(c.params[0] as string, c.params[1] as string) ?? notFound(c, 'notFound'),
  },
  {
    method: 'GET',
    path: /^\/api\/audit$/,
    handler: async (ctx, c) => ({ records: await ctx.gateway.audit(intParam(c.url, 'limit', 50, 500)) }),
  },
  {
    // One page of the list (`offset`, `limit` ≤ 500): `nextOffset` is null after the last page.
    method: 'GET',
    path: /^\/api\/sessions$/,
    handler: async (ctx, c) => {
      const page = await ctx.sessions.page(sessionFilter(c.url), intParam(c.url, 'offset', 0, Number.MAX_SAFE_INTEGER));
      return { ...page, sessions: page.sessions.map((s) => labelled(ctx, s)) };
    },
  },
  {
    // The list grouped by project (same filters); each group then pages with `?project=`.
    method: 'GET',
    path: /^\/api\/sessions\/projects$/,
    handler: async (ctx, c) => ({ projects: await ctx.sessions.projects(sessionFilter(c.url)) }),
  },
  {
    // The composer of one session's view: the bridge gets the text pinned to that session.
    method: 'POST',
    path: /^\/api\/sessions\/([0-9a-zA-Z-]{1,64})\/messages$/,
    handler: async (ctx, c) => {
      const bridge = requireBridge(ctx, c);
      const sessionId = c.params[0] as string;
      const body = await json(c);
      const uuid = requireUuid(body.id, c.lang);
      const files = fileIds(body.files, c.lang);
      const text = textBeside(body.text, files.length > 0, c.lang);
      if (!(await ctx.sessions.get(sessionId)))
        throw new HttpError(404, consoleMessages(c.lang)('sessionNotFound', { id: sessionId }));
      return acceptText(ctx, bridge, c, uuid, text, sessionId, files);
    },
  },
  {
    // The page's Refresh: the daemon rescans the session folders, then the page reloads its list.
    method: 'POST',
    path: /^\/api\/sessions\/rescan$/,
    handler: async (ctx) => {
      await ctx.sessions.rescan?.();
      return { rescanned: ctx.sessions.rescan !== undefined };
    },
  },
  { method: 'GET', path: /^\/api\/agents$/, handler: async (ctx) => ({ agents: await ctx.agents.list() }) },
  {
    method: 'GET',
    path: /^\/api\/sessions\/([0-9a-zA-Z-]{1,64})$/,
    handler: async (ctx, c) => {
      const id = c.params[0] as string;
      const session = (await ctx.sessions.get(id)) ?? notFound(c, 'notFound');
      const turns = await ctx.sessions.recentTurns(id, intParam(c.url, 'turns', 20, 200));
      // Claude's text is markdown: send it rendered by the escaping renderer, next to the raw text.
      return { session: labelled(ctx, session), turns: turns.map((t) => ({ ...t, html: renderMarkdown(t.text) })) };
    },
  },
  {
    method: 'GET',
    path: /^\/api\/sessions\/([0-9a-zA-Z-]{1,64})\/transcript$/,
    handler: async (ctx, c) => transcriptBody(ctx.sessions, c.params[0] as string, c.url, c.lang),
  },
  {
    method: 'GET',
    path: /^\/api\/sessions\/([0-9a-zA-Z-]{1,64})\/transcript\/images\/(\d{1,6})$/,
    handler: async (ctx, c) =>
      sendTranscriptImage(ctx.sessions, c.params[0] as string, c.params[1] as string, c.res, c.lang),
  },
  {
    method: 'GET',
    path: /^\/api\/sessions\/([0-9a-zA-Z-]{1,64})\/changes$/,
    handler: async (ctx, c) =>
      (await ctx.workspace?.changes(c.params[0] as string, { ...ctx.dirPolicy, lang: c.lang })) ??
      notFound(c, 'notFound'),
  },
  {
    method: 'GET',
    path: /^\/api\/sessions\/([0-9a-zA-Z-]{1,64})\/files$/,
    handler: async (ctx, c) =>
      (await ctx.workspace?.browse(c.params[0] as string, filePath(c), { ...ctx.dirPolicy, lang: c.lang })) ??
      notFound(c, 'notFound'),
  },
  {
    method: 'GET',
    path: /^\/api\/sessions\/([0-9a-zA-Z-]{1,64})\/files\/raw$/,
    handler: async (ctx, c) => {
      const policy = { ...ctx.dirPolicy, lang: c.lang };
      if (!(await ctx.workspace?.download(c.params[0] as string, filePath(c), policy, c.res))) notFound(c, 'notFound');
    },
  },
  {
    method: 'POST',
    path: /^\/api\/sessions\/([0-9a-zA-Z-]{1,64})\/continue$/,
    handler: async (ctx, c) => {
      const bridge = requireBridge(ctx, c);
      return bridge.handleAction({
        channel: 'web',
        userId: WEB_USER_ID,
        action: { type: 'switch', sessionId: c.params[0] as string },
      });
    },
  },
  {
    method: 'GET',
    path: /^\/api\/dirs$/,
    handler: async (ctx, c) =>
      listPickerDirs(c.url.searchParams.get('path') ?? undefined, { ...ctx.dirPolicy, lang: c.lang }),
  },
  {
    method: 'POST',
    path: /^\/api\/sessions\/new$/,
    handler: async (ctx, c) => {
      const bridge = requireBridge(ctx, c);
      const body = await json(c);
      const id = requireUuid(body.id, c.lang);
      const dir = optString(body.dir, 'dir', c.lang) ?? '';
      const prompt = typeof body.prompt === 'string' ? body.prompt.trim() : '';
      const agent = optString(body.agent, 'agent', c.lang);
      if (agent !== undefined && !ctx.agents.has(agent)) {
        const known = (await ctx.agents.list()).map((a) => a.name).join(', ');
        throw new HttpError(400, consoleMessages(c.lang)('unknownAgent', { agent: agent.slice(0, 64), known }));
      }
      const check = await checkWorkingDirectory(dir, { ...ctx.dirPolicy, lang: c.lang });
      if (!check.ok) throw new HttpError(400, check.message);
      // `/new` splits its arguments at a standalone `--` and, around `--agent`, rebuilds the
      // directory from its words: a path that would read otherwise is refused, never guessed.
      if (/(^|\s)--/.test(check.realPath) || (agent !== undefined && /\s\s|[^\S ]/.test(check.realPath)))
        throw new HttpError(400, consoleMessages(c.lang)('badRequest', { reason: 'dir' }));
      const option = agent === undefined ? '' : ` --agent ${agent}`;
      const text = `/new ${check.realPath}${option}${prompt ? ` -- ${prompt}` : ''}`;
      if (text.length > MAX_TEXT) throw new HttpError(400, consoleMessages(c.lang)('badRequest', { reason: 'prompt' }));
      return acceptText(ctx, bridge, c, id, text);
    },
  },
  {
    method: 'GET',
    path: /^\/api\/bridge\/messages$/,
    handler: async (ctx, c) => ({ messages: ctx.outbox.history(intParam(c.url, 'limit', 200, 2000)) }),
  },
  {
    method: 'POST',
    path: /^\/api\/bridge\/messages$/,
    handler: async (ctx, c) => {
      const bridge = requireBridge(ctx, c);
      const body = await json(c);
      const files = fileIds(body.files, c.lang);
      const text = textBeside(body.text, files.length > 0, c.lang);
      return acceptText(ctx, bridge, c, requireUuid(body.id, c.lang), text, undefined, files);
    },
  },
  {
    method: 'POST',
    path: /^\/api\/bridge\/actions$/,
    handler: async (ctx, c) => {
      const bridge = requireBridge(ctx, c);
      const body = await json(c);
      const messageId = optString(body.messageId, 'messageId', c.lang) ?? '';
      const action = typeof body.button === 'number' ? ctx.outbox.buttonAction(messageId, body.button) : null;
      if (!action) throw new HttpError(400, consoleMessages(c.lang)('badRequest', { reason: 'button' }));
      const result = await bridge.handleAction({ channel: 'web', userId: WEB_USER_ID, action, messageId });
      if (result.card) await ctx.outbox.update(messageId, result.card);
      return { toast: result.toast ?? null };
    },
  },
  ...FILE_ROUTES,
];

/** A session with its agent named as the daemon's catalog names it. */
function labelled<T extends { agent: string; agentLabel: string }>(ctx: ApiContext, s: T): T {
  return { ...s, agentLabel: ctx.agents.label(s.agent) };
}

/** Routes one authorised `/api/…` request; returns false when no route matches the path. */
export async function handleApi(
  ctx: ApiContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  lang: Language,
  client: string,
): Promise<boolean> {
  let pathMatched = false;
  for (const route of ROUTES) {
    const m = route.path.exec(url.pathname);
    if (!m) continue;
    pathMatched = true;
    if (route.method !== req.method) continue;
    const body = await route.handler(ctx, { req, res, url, params: m.slice(1), lang, client });
    if (!res.headersSent) sendJson(res, res.statusCode, body ?? {});
    return true;
  }
  if (pathMatched) throw new HttpError(405, httpMessages(lang)('methodNotAllowed'));
  return false;
}

/**
 * Hands the page's text and its uploads (`files`, ids) to the bridge, pinned to `sessionId` when
 * the page sent it from that session's view. A command (`/list`) is not the session's: its text,
 * like its reply, stays out of the session's view. Uploads a refused message took are given back.
 */
async function acceptText(
  ctx: ApiContext,
  bridge: ConsoleBridge,
  c: Call,
  uuid: string,
  text: string,
  sessionId?: string,
  files: string[] = [],
): Promise<unknown> {
  const attached = await takeAttachments(ctx.uploads, files, uuid, text, c.lang);
  const message = WebChannel.message(uuid, text, new Date(), sessionId, attached);
  const isCommand = text.trimStart().startsWith('/');
  const view = await ctx.outbox.recordUser(message.id, text, isCommand ? undefined : sessionId, attached?.shown);
  const result = await bridge.accept(message).catch((err: unknown) => {
    ctx.uploads.release(files, uuid);
    throw err;
  });
  if (result.status === 'refused') ctx.uploads.release(files, uuid);
  return { message: view, result };
}

async function json(c: Call): Promise<Record<string, unknown>> {
  const t = httpMessages(c.lang);
  const body = await readBody(c.req, 'json', MAX_JSON_BODY, {
    tooLarge: t('bodyTooLarge', { max: MAX_JSON_BODY }),
    badType: t('needJson'),
    badJson: t('badJson'),
  });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, t('badJson'));
  return body as Record<string, unknown>;
}

function requireBridge(ctx: ApiContext, c: Call): ConsoleBridge {
  if (!ctx.bridge) throw new HttpError(503, consoleMessages(c.lang)('noBridge'));
  return ctx.bridge;
}

/** The `path` parameter of the file browser (relative to the session's directory; `workspace/` judges it). */
function filePath(c: Call): string {
  const value = c.url.searchParams.get('path') ?? '';
  if (value.length > 4096) throw new HttpError(400, consoleMessages(c.lang)('badRequest', { reason: 'path' }));
  return value;
}

/** The sessions list's filters from the query (`limit` ≤ 500, default 100). */
function sessionFilter(url: URL): SessionFilter {
  const pick = (k: string) => (url.searchParams.get(k) ?? '').slice(0, 200) || undefined;
  return {
    q: pick('q'),
    agent: pick('agent'),
    origin: pick('origin'),
    status: pick('status'),
    project: pick('project'),
    limit: intParam(url, 'limit', 100, 500),
  };
}

function notFound(c: Call, key: 'notFound' | 'chatNotFound'): never {
  throw new HttpError(404, key === 'chatNotFound' ? consoleMessages(c.lang)(key) : httpMessages(c.lang)(key));
}
