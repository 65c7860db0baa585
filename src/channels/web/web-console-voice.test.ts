import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../bridge/inbound-message.js';
import type { SpeechToText } from '../../bridge/voice/speech-to-text.js';
import { AppError } from '../../core/app-error.js';
import {
  fakeStatus,
  loginCookie,
  rawRequest,
  sameOriginPost,
  startTestConsole,
  stopTestConsole,
  type TestConsole,
} from '../../../test/helpers/web-console-kit.js';
import type { ConsoleBridge } from './console/api-routes.js';

// The console's microphone route: login and same-origin like every POST, a size cap from
// voice.max_seconds, PCM transcribed in ≤ 60 s pieces, then one voice message to the bridge.

let t: TestConsole | undefined;
afterEach(async () => {
  if (t) await stopTestConsole(t);
  t = undefined;
});

const ID = '0b9c8f2e-1d3a-4c5b-8e7f-6a5b4c3d2e1f';

/** A bridge keeping every message it accepts. */
function keepingBridge(kept: InboundMessage[]): ConsoleBridge {
  return {
    accept: async (m) => {
      kept.push(m);
      return { status: 'accepted' };
    },
    handleAction: async () => ({}),
    status: async () => fakeStatus,
  };
}

/** A speech service that answers with the length of each piece, and records them. */
function countingStt(pieces: number[], fail?: AppError): SpeechToText {
  return {
    transcribe: async (pcm) => {
      if (fail) throw fail;
      pieces.push(pcm.length);
      return pcm.length > 16_000 ? `piece of ${Math.round(pcm.length / 16_000)} s` : '';
    },
  };
}

/** `seconds` of a 16-bit PCM tone. */
const pcm = (seconds: number): Buffer => {
  const b = Buffer.alloc(seconds * 16_000 * 2);
  for (let i = 0; i < b.length / 2; i += 1) b.writeInt16LE(Math.round(5000 * Math.sin(i / 5)), i * 2);
  return b;
};

function post(
  port: number,
  path: string,
  body: Buffer,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { Host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('close', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', () => undefined);
      },
    );
    req.on('error', (err) =>
      String(err).includes('EPIPE') || String(err).includes('ECONNRESET') ? undefined : reject(err),
    );
    req.end(body);
  });
}

async function setUp(o: { stt?: SpeechToText; maxSeconds?: number } = {}) {
  const kept: InboundMessage[] = [];
  t = await startTestConsole({ bridge: keepingBridge(kept), ...(o.stt ? { speechToText: o.stt } : {}) });
  if (o.maxSeconds) t.config.voice.max_seconds = o.maxSeconds;
  const port = t.web.port;
  const cookie = await loginCookie(port, t.token);
  const headers = { ...sameOriginPost(port, cookie), 'Content-Type': 'application/octet-stream' };
  return { kept, port, cookie, headers };
}

describe('POST /api/voice/messages', () => {
  it('transcribes a 70 s recording in two pieces and sends one voice message with the joined text', async () => {
    const pieces: number[] = [];
    const { kept, port, cookie, headers } = await setUp({ stt: countingStt(pieces) });
    expect(JSON.parse((await rawRequest(port, '/api/voice', { headers: { Cookie: cookie } })).body)).toEqual({
      available: true,
      maxSeconds: 300,
    });
    const r = await post(port, `/api/voice/messages?id=${ID}`, pcm(70), headers);
    expect(r.status).toBe(200);
    expect(pieces).toHaveLength(2);
    expect(pieces.every((n) => n <= 60 * 16_000)).toBe(true);
    expect(pieces[0]! + pieces[1]!).toBe(70 * 16_000);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ id: `web:${ID}`, text: '', voice: { durationMs: 70_000 } });
    expect(kept[0]?.voice?.transcript).toMatch(/^piece of \d+ s piece of \d+ s$/);
    expect(JSON.parse(r.body).message.text).toBe(`🎤 ${kept[0]?.voice?.transcript}`);
  });

  it('a speech service failure still sends the message, carrying the reason, so the reply explains it', async () => {
    const { kept, port, headers } = await setUp({ stt: countingStt([], new AppError('X', 'not permitted')) });
    expect((await post(port, `/api/voice/messages?id=${ID}`, pcm(1), headers)).status).toBe(200);
    expect(kept[0]?.voice).toEqual({ durationMs: 1000, error: 'not permitted' });
  });

  it('without a speech service: the microphone is hidden and the route says what is needed', async () => {
    const { kept, port, cookie, headers } = await setUp();
    expect(JSON.parse((await rawRequest(port, '/api/voice', { headers: { Cookie: cookie } })).body).available).toBe(
      false,
    );
    const r = await post(port, `/api/voice/messages?id=${ID}`, pcm(1), headers);
    expect(r.status).toBe(503);
    expect(JSON.parse(r.body).error).toContain('needs a speech-to-text service');
    expect(kept).toHaveLength(0);
  });

  it('guards: no login 401, a foreign Origin 403, too long 413, wrong type 415, odd bytes or a bad id 400 — nothing sent', async () => {
    const pieces: number[] = [];
    const { kept, port, cookie, headers } = await setUp({ stt: countingStt(pieces), maxSeconds: 2 });
    const path = `/api/voice/messages?id=${ID}`;
    const octet = { 'Content-Type': 'application/octet-stream' };
    expect((await post(port, path, pcm(1), { ...octet, Origin: `http://127.0.0.1:${port}` })).status).toBe(401);
    expect((await post(port, path, pcm(1), { ...octet, Cookie: cookie, Origin: 'http://evil.example' })).status).toBe(
      403,
    );
    expect((await post(port, path, pcm(3), headers)).status).toBe(413);
    expect((await post(port, path, pcm(1), { ...headers, 'Content-Type': 'audio/wav' })).status).toBe(415);
    expect((await post(port, path, Buffer.alloc(3), headers)).status).toBe(400);
    expect((await post(port, '/api/voice/messages?id=nope', pcm(1), headers)).status).toBe(400);
    expect((await post(port, `${path}&session=${'x'.repeat(65)}`, pcm(1), headers)).status).toBe(400);
    expect(pieces).toHaveLength(0);
    expect(kept).toHaveLength(0);
  });
});
