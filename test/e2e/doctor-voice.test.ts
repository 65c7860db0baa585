/**
 * `cc-linker doctor`'s voice check, with the daemon's own choice of speech service: off and none
 * are information; Feishu's is ok (and, with Slack enabled, a line that audio clips stay files);
 * the OpenAI-compatible endpoint is asked once through the real `openai` client against the fake
 * transcription server — accepted is ok, a refused key fails, a server without the models route
 * is "could not be checked" (a warning), unreachable a warning — and the key is never printed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeTranscription,
  type FakeTranscription,
} from '../fakes/fake-transcription/fake-transcription-server.js';
import { pathWithoutDevAgents } from '../helpers/path-without-dev-agents.js';
import { runSessionCli } from '../helpers/run-session-cli.js';

const KEY = 'sk-voice-good-0123456789abcdef';
const WRONG = 'sk-refused-9876543210fedcba';
let tmp: string;
let home: string;
let fake: FakeTranscription;

beforeAll(async () => {
  fake = await startFakeTranscription(KEY);
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-doctor-voice-')));
  home = path.join(tmp, 'home');
  fs.mkdirSync(path.join(home, '.cc-linker'), { recursive: true, mode: 0o700 });
});
afterAll(async () => {
  await fake.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

type Check = { name: string; level: string; text: string };

/** `doctor --json` with `[voice]` (and more) as given; the voice checks, every check, the exit code. */
async function doctor(toml: string[], voiceKey = '', language = 'en') {
  const file = ['[general]', `language = "${language}"`, ...toml];
  fs.writeFileSync(path.join(home, '.cc-linker', 'config.toml'), `${file.join('\n')}\n`, { mode: 0o600 });
  const env = {
    HOME: home,
    CC_LINKER_HOME: path.join(home, '.cc-linker'),
    PATH: pathWithoutDevAgents(),
    ...(voiceKey ? { CC_LINKER_VOICE_API_KEY: voiceKey } : {}),
  };
  const r = await runSessionCli(['doctor', '--json'], { env, now: new Date() });
  const checks = (JSON.parse(r.stdout) as { checks: Check[] }).checks;
  return { ...r, checks, voice: checks.filter((c) => c.name === 'voice').map((c) => [c.level, c.text]) };
}

const endpoint = (base: string, model = 'whisper-1') => ['[voice]', `api_base = "${base}"`, `model = "${model}"`];
const feishuApp = ['[feishu_bot]', 'app_id = "cli_doctor_voice"', 'app_secret = "feishu-secret-doctor-voice"'];
const slackOn = ['[slack]', 'enabled = true'];

describe('doctor: voice', () => {
  it('voice off, and no service set up, are information naming what to set', async () => {
    const off = await doctor(['[voice]', 'enabled = false']);
    expect(off.voice).toEqual([
      ['info', 'Voice: off (voice.enabled = false); voice messages are answered "voice handling is off"'],
    ]);
    const none = await doctor([]);
    expect(none.voice).toEqual([
      [
        'info',
        'Voice: no speech service set up; voice messages will be answered with how to set one up — set [voice] api_key (or CC_LINKER_VOICE_API_KEY, an OpenAI-compatible endpoint) or a Feishu app',
      ],
    ]);
    const openaiNoKey = await doctor(['[voice]', 'service = "openai"']);
    expect(openaiNoKey.voice[0]?.[1]).toContain('voice.service is "openai" but [voice] api_key');
    const feishuNoApp = await doctor(['[voice]', 'service = "feishu"']);
    expect(feishuNoApp.voice[0]?.[1]).toContain('voice.service is "feishu" but no Feishu app is set up');
    expect(fake.lookups).toEqual([]);
  });

  it("Feishu's service is ok; with Slack enabled a line says audio clips stay files, and how to change it", async () => {
    const feishu = await doctor(feishuApp);
    expect(feishu.voice).toEqual([
      ['ok', "Voice: Feishu's speech recognition (the app needs the speech_to_text:speech scope)"],
    ]);
    const withSlack = await doctor([...feishuApp, ...slackOn]);
    expect(withSlack.voice).toEqual([
      ['ok', "Voice: Feishu's speech recognition (the app needs the speech_to_text:speech scope)"],
      [
        'info',
        'Voice: Slack audio clips (webm/mp4) will be kept as files: Feishu\'s speech recognition takes raw audio only; set [voice] api_key and service = "openai" to transcribe them',
      ],
    ]);
    // `auto` with a Feishu app picks Feishu's even with a key: the key alone does not help the clips.
    const keyToo = await doctor([...feishuApp, ...slackOn, ...endpoint(fake.baseURL)], KEY);
    expect(keyToo.voice[1]?.[1]).toContain('set [voice] service = "openai" to transcribe them');
    expect(fake.lookups).toEqual([]);
    // With the endpoint chosen, Slack's clips are transcribed: no such line, the endpoint is checked.
    const openai = await doctor([...feishuApp, ...slackOn, ...endpoint(fake.baseURL), 'service = "openai"'], KEY);
    expect(openai.voice.map(([level]) => level)).toEqual(['ok']);
    expect(fake.lookups).toEqual(['/v1/models/whisper-1']);
  });

  it('the endpoint: an accepted key is ok naming base and model; a refused key fails without the key', async () => {
    fake.lookups.length = 0;
    const good = await doctor(endpoint(fake.baseURL), KEY);
    expect(good.voice).toEqual([
      ['ok', `Voice: the transcription service ${fake.baseURL} accepted the API key, model whisper-1`],
    ]);
    expect(fake.lookups).toEqual(['/v1/models/whisper-1']);

    const refused = await doctor(endpoint(fake.baseURL), WRONG);
    expect(refused.voice).toEqual([
      [
        'fail',
        `Voice: the transcription service (${fake.baseURL}) rejected the API key (HTTP 401); check voice.api_key`,
      ],
    ]);
    expect(refused.code).toBe(1);
    expect(good.checks.filter((c) => c.level === 'fail').map((c) => c.name)).not.toContain('voice');

    const zh = await doctor(endpoint(fake.baseURL), WRONG, 'zh');
    expect(zh.voice[0]?.[1]).toBe(
      `语音: 语音转写服务（${fake.baseURL}）拒绝了 API key（HTTP 401），请检查 voice.api_key`,
    );
    for (const r of [good, refused, zh]) {
      for (const secret of [KEY, WRONG, WRONG.slice(0, 6), KEY.slice(-8)])
        expect(r.stdout + r.stderr).not.toContain(secret);
    }
    // Nothing was uploaded: the check is one model lookup, not a transcription.
    expect(fake.requests).toEqual([]);
  });

  it('a model the server does not have warns; a server without the models route is "could not be checked"; unreachable warns', async () => {
    const unknown = await doctor(endpoint(fake.baseURL, 'no-such-model'), KEY);
    expect(unknown.voice).toEqual([
      [
        'warn',
        `Voice: the transcription service (${fake.baseURL}) has no model no-such-model (HTTP 404); check voice.model and voice.api_base`,
      ],
    ]);
    fake.modelsRoute = false;
    try {
      const bare = await doctor(endpoint(fake.baseURL), KEY);
      expect(bare.voice).toEqual([
        [
          'warn',
          `Voice: the transcription service ${fake.baseURL} answered, but the model whisper-1 could not be checked (HTTP 404 on /models); the first voice message will tell`,
        ],
      ]);
    } finally {
      fake.modelsRoute = true;
    }

    const down = await startFakeTranscription(KEY);
    const downBase = down.baseURL;
    await down.close();
    const unreachable = await doctor(endpoint(downBase), KEY);
    expect(unreachable.voice).toHaveLength(1);
    expect(unreachable.voice[0]?.[0]).toBe('warn');
    expect(unreachable.voice[0]?.[1]).toMatch(
      new RegExp(`^Voice: cannot reach the transcription service \\(${downBase.replace(/[.]/g, '\\.')}\\): .+`),
    );
    expect(unreachable.stdout).not.toContain(KEY);
  });

  it('the plain printout carries the voice row like the other checks', async () => {
    fs.writeFileSync(
      path.join(home, '.cc-linker', 'config.toml'),
      `${['[general]', 'language = "en"', ...endpoint(fake.baseURL)].join('\n')}\n`,
      { mode: 0o600 },
    );
    const env = { HOME: home, CC_LINKER_HOME: path.join(home, '.cc-linker'), PATH: pathWithoutDevAgents() };
    const r = await runSessionCli(['doctor'], { env: { ...env, CC_LINKER_VOICE_API_KEY: WRONG }, now: new Date() });
    expect(r.stdout.split('\n').filter((l) => l.includes('Voice:'))).toEqual([
      `❌ Voice: the transcription service (${fake.baseURL}) rejected the API key (HTTP 401); check voice.api_key`,
    ]);
  });
});
