import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseMultipart } from '../fake-telegram/multipart.js';
import { hearTone } from '../voice/tone-analysis.js';

/** One transcription request the fake answered (or refused). */
export interface TranscriptionRequest {
  model: string;
  /** The uploaded file's name and the seconds of 16 kHz mono PCM it held (0 when not such a WAV). */
  filename: string;
  seconds: number;
  /** The uploaded file's size. */
  bytes: number;
  /** What the fake answered: the text, or the refusal's status. */
  text?: string;
  status?: number;
}

/** A 16-bit mono PCM WAV's samples and rate, or null when the bytes are not one. */
export function readWav(wav: Buffer): { pcm: Int16Array; rate: number } | null {
  if (wav.length < 44 || wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE') return null;
  if (wav.readUInt16LE(20) !== 1 || wav.readUInt16LE(22) !== 1 || wav.readUInt16LE(34) !== 16) return null;
  if (wav.toString('ascii', 36, 40) !== 'data') return null;
  const samples = Math.floor(Math.min(wav.readUInt32LE(40), wav.length - 44) / 2);
  const pcm = new Int16Array(samples);
  for (let i = 0; i < samples; i += 1) pcm[i] = wav.readInt16LE(44 + i * 2);
  return { pcm, rate: wav.readUInt32LE(24) };
}

/** What the compressed clips the fake takes start with, by the extension OpenAI reads the format from. */
const CLIP_MAGIC: Readonly<Record<string, (b: Buffer) => boolean>> = {
  webm: (b) => b.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3])),
  mp4: (b) => b.toString('latin1', 4, 8) === 'ftyp',
  m4a: (b) => b.toString('latin1', 4, 8) === 'ftyp',
};

/**
 * An upload named `*.webm` / `*.mp4` / `*.m4a`: its extension when the bytes are that container,
 * null when they are not (OpenAI answers 400 then), undefined for any other name.
 */
function clipKind(filename: string, data: Buffer): string | null | undefined {
  const ext = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? '';
  const magic = CLIP_MAGIC[ext];
  if (!magic) return undefined;
  return magic(data) ? ext : null;
}

/** What one model looks like in OpenAI's `/v1/models` answers. */
const modelObject = (id: string) => ({ id, object: 'model', created: 1_677_610_602, owned_by: 'openai-internal' });

/**
 * A local OpenAI-compatible transcription endpoint: `POST /v1/audio/transcriptions` (multipart:
 * `file`, `model`, `response_format`), the key checked as a bearer token (401 with OpenAI's error
 * body, which echoes part of the key, as OpenAI does), models other than `models` → 404. It answers
 * `{text}` with what `hearTone` hears in the WAV; a compressed clip named `.webm` / `.mp4` / `.m4a`
 * whose bytes are that container is answered `"<ext> clip, <n> bytes"`; anything else is refused (400).
 * `failNext(status, times)` makes the next requests fail (429 / 5xx).
 */
export class FakeTranscription {
  readonly requests: TranscriptionRequest[] = [];
  private readonly server = http.createServer((req, res) => void this.handle(req, res));
  private failures: number[] = [];

  constructor(
    readonly apiKey: string,
    readonly models: readonly string[] = ['whisper-1'],
  ) {}

  get baseURL(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /**
   * `GET /v1/models` and `GET /v1/models/{id}` as OpenAI answers them (a wrong key → 401, an unknown
   * id → 404 `model_not_found`); the requested paths are kept in `lookups`. Set to false to be a
   * server without the models route (a bare whisper server): every such request is then a 404.
   */
  modelsRoute = true;
  readonly lookups: string[] = [];

  failNext(status: number, times = 1): void {
    for (let i = 0; i < times; i += 1) this.failures.push(status);
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answerModels(
    url: string,
    key: string,
    reply: (status: number, body: unknown) => void,
    error: (status: number, message: string, type?: string) => void,
  ): void {
    this.lookups.push(url);
    if (key !== this.apiKey) return error(401, `Incorrect API key provided: ${key.slice(0, 6)}***.`);
    if (url === '/v1/models') return reply(200, { object: 'list', data: this.models.map(modelObject) });
    const id = decodeURIComponent(url.slice('/v1/models/'.length));
    if (this.models.includes(id)) return reply(200, modelObject(id));
    reply(404, {
      error: {
        message: `The model '${id}' does not exist`,
        type: 'invalid_request_error',
        param: 'model',
        code: 'model_not_found',
      },
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const error = (status: number, message: string, type = 'invalid_request_error') =>
      reply(status, { error: { message, type, param: null, code: null } });
    const key = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (req.method === 'GET' && req.url?.startsWith('/v1/models') && this.modelsRoute)
      return this.answerModels(req.url, key, reply, error);
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') return error(404, 'no such route');
    const parts = parseMultipart(Buffer.concat(chunks), req.headers['content-type'] ?? '');
    const field = (name: string) => parts.find((p) => p.name === name);
    const model = field('model')?.data.toString('utf8') ?? '';
    const file = field('file');
    const wav = file ? readWav(file.data) : null;
    const request: TranscriptionRequest = {
      model,
      filename: file?.filename ?? '',
      seconds: wav ? wav.pcm.length / wav.rate : 0,
      bytes: file?.data.length ?? 0,
    };
    this.requests.push(request);
    const refuse = (status: number, message: string, type?: string) => {
      request.status = status;
      error(status, message, type);
    };
    if (key !== this.apiKey) return refuse(401, `Incorrect API key provided: ${key.slice(0, 6)}***.`);
    const failure = this.failures.shift();
    if (failure !== undefined)
      return refuse(failure, failure === 429 ? 'Rate limit reached' : 'upstream failed', 'server_error');
    if (!this.models.includes(model)) return refuse(404, `The model \`${model}\` does not exist`);
    const clip = file && !wav ? clipKind(file.filename ?? '', file.data) : undefined;
    if (clip === null) return refuse(400, 'Invalid file format. Supported formats: mp4, m4a, webm');
    if (clip) {
      request.text = `${clip} clip, ${file?.data.length ?? 0} bytes`;
      return reply(200, { text: request.text });
    }
    if (!wav || wav.rate !== 16_000) return refuse(400, 'Invalid file format: expected 16 kHz mono 16-bit WAV');
    request.text = hearTone(wav.pcm, wav.rate).text;
    reply(200, { text: request.text });
  }
}

/** A started fake with key `apiKey`. */
export function startFakeTranscription(apiKey: string, models?: readonly string[]): Promise<FakeTranscription> {
  return new FakeTranscription(apiKey, models).listen();
}
