import {
  startScriptedSseServer,
  type HttpErrorSpec,
  type RecordedRequest,
  type ScriptedServer,
  type ScriptedServerOptions,
} from './scripted-sse-server.js';

/**
 * A scripted Gemini API (v1beta) server, what Gemini CLI speaks with `GOOGLE_GEMINI_BASE_URL`:
 * `POST /v1beta/models/<model>:generateContent` answers one JSON `GenerateContentResponse`,
 * `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` streams `data: {candidates: […]}`
 * lines, one per text piece or function call, the last with `finishReason: "STOP"` and
 * `usageMetadata`. Turns come from the queue, or from `options.script` once it is empty.
 */

export type GeminiFakeEvent =
  | { kind: 'text'; pieces: string[]; pauseMs?: number }
  | { kind: 'functionCall'; name: string; args: Record<string, unknown> }
  /** Stop writing and keep the connection open until the client leaves. */
  | { kind: 'hang' };

export type GeminiFakeTurn = { events: GeminiFakeEvent[] } | { httpError: HttpErrorSpec };

/** The running fake; `baseURL` is the origin (what `GOOGLE_GEMINI_BASE_URL` takes, no path). */
export type FakeGeminiServer = ScriptedServer<GeminiFakeTurn> & { readonly baseURL: string };

const ROUTE = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** The model and streaming of a Gemini request, read from its path. */
export function geminiRoute(request: Pick<RecordedRequest, 'path'>): { model: string; stream: boolean } | undefined {
  const m = ROUTE.exec(request.path);
  return m ? { model: decodeURIComponent(m[1] ?? ''), stream: m[2] === 'streamGenerateContent' } : undefined;
}

const usage = { promptTokenCount: 25, candidatesTokenCount: 5, totalTokenCount: 30 };

function candidate(parts: unknown[], finish?: string): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(finish ? { finishReason: finish } : {}) }],
  };
}

/** Starts the fake on 127.0.0.1. */
export async function startFakeGeminiServer(
  options: ScriptedServerOptions<GeminiFakeTurn> = {},
): Promise<FakeGeminiServer> {
  const server = await startScriptedSseServer<GeminiFakeTurn>(
    {
      route: (method, path) => method === 'POST' && ROUTE.test(path),
      httpError: (turn) => ('httpError' in turn ? turn.httpError : undefined),
      exhaustedBody: { error: { code: 500, message: 'fake-gemini: no scripted turn left', status: 'INTERNAL' } },
      scriptErrorBody: (message) => ({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }),
      async play(turn, out, _body, recorded) {
        if (!('events' in turn)) return;
        if (!geminiRoute(recorded)?.stream) {
          const parts = turn.events.flatMap((ev): unknown[] => {
            if (ev.kind === 'text') return [{ text: ev.pieces.join('') }];
            if (ev.kind === 'functionCall') return [{ functionCall: { name: ev.name, args: ev.args } }];
            return [];
          });
          return out.json({ ...candidate(parts, 'STOP'), usageMetadata: usage });
        }
        for (const ev of turn.events) {
          if (out.gone()) return;
          if (ev.kind === 'hang') return out.hang();
          if (ev.kind === 'functionCall') {
            await out.send(candidate([{ functionCall: { name: ev.name, args: ev.args } }]));
            continue;
          }
          for (const text of ev.pieces) {
            if (ev.pauseMs) await out.pause(ev.pauseMs);
            if (out.gone()) return;
            await out.send(candidate([{ text }]));
          }
        }
        await out.send({ ...candidate([{ text: '' }], 'STOP'), usageMetadata: usage });
      },
    },
    options,
  );
  return Object.assign(server, { baseURL: server.origin });
}
