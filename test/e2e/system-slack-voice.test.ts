// The whole system (`assembleDaemon`) with Slack next to Feishu: a Slack audio clip goes through the
// daemon's choice of speech-to-text. With `voice.service = "openai"` the clip is sent whole to the
// endpoint (the real `openai` client against a local fake) and the REAL bundled Claude Code is asked
// the transcript; with `auto` the daemon's speech service is Feishu's (PCM only), so the clip is
// kept as a file, Claude is given the file, and the answer says why it was not heard.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../fakes/fake-slack/fake-slack-server.js';
import {
  startFakeTranscription,
  type FakeTranscription,
} from '../fakes/fake-transcription/fake-transcription-server.js';
import { webmClip } from '../fakes/voice/audio-clip-fixture.js';
import { CASE_TIMEOUT_MS, CLAUDE_BIN, showLogOnFailure, startSystem, type System } from './system-harness.js';
import { OWNER } from './slack-harness.js';
import { until } from './telegram-harness.js';

const KEY = 'sk-system-slack-voice-0123456789';

let s: System | undefined;
let sl: FakeSlack | undefined;
let stt: FakeTranscription | undefined;
afterEach(async () => {
  await s?.stop();
  await sl?.close();
  await stt?.close();
  s = sl = stt = undefined;
}, CASE_TIMEOUT_MS);

/** The system with Slack on; `voice` edits the `[voice]` table. */
async function start(voice: (v: System['config']['voice']) => void): Promise<{ s: System; sl: FakeSlack }> {
  const slack = await startFakeSlack();
  sl = slack;
  s = await startSystem('sdk', {
    tweak: (c) => {
      c.slack.enabled = true;
      c.slack.bot_token = slack.botToken;
      c.slack.app_token = slack.appToken;
      c.slack.api_url = slack.apiUrl;
      c.slack.owner_user_id = OWNER;
      c.stream.throttle_ms = 100;
      voice(c.voice);
    },
  });
  return { s, sl: slack };
}

/** Opens a session in `cwd`, then shares a clip in the owner's DM. */
async function clipInSession(sys: System, slack: FakeSlack, project: string, id: string, clip: Buffer) {
  const cwd = sys.sys.project(project);
  slack.pushMessage(OWNER, `/new ${cwd} -- echo: listening`);
  const seen = () => slack.inChannel(slack.dm(OWNER)).some((m) => m.visible.includes('listening'));
  await until(seen, 'the session', 45_000);
  const file = slack.addFile(id, 'audio_message.webm', 'audio/webm', clip);
  slack.pushMessage(OWNER, '', {
    subtype: 'file_share',
    files: [{ ...file, subtype: 'slack_audio', filetype: 'webm', duration_ms: 2_000 }],
  });
}

const answered = (slack: FakeSlack, ...parts: string[]) =>
  slack.inChannel(slack.dm(OWNER)).some((m) => parts.every((p) => m.visible.includes(p)));

describe.skipIf(!CLAUDE_BIN)('a Slack audio clip through the whole system', () => {
  it(
    'voice.service = "openai": the transcript is the prompt and the answer quotes it with 🎤',
    async () => {
      stt = await startFakeTranscription(KEY);
      const endpoint = stt;
      const { s: sys, sl: slack } = await start((v) => {
        v.service = 'openai';
        v.api_base = endpoint.baseURL;
        v.api_key = KEY;
      });
      showLogOnFailure(() => sys);
      await clipInSession(sys, slack, 'sl-voice', 'F0SYSCLIP', webmClip(800));
      const prompt = '[voice message, transcribed] webm clip, 800 bytes';
      await until(() => answered(slack, '🎤 webm clip, 800 bytes', `ok: ${prompt}`), 'the answer to the clip', 45_000);
      expect(sys.anth.messageRequests().some((r) => r.scriptRequest?.lastUserText === prompt)).toBe(true);
      expect(endpoint.requests).toEqual([expect.objectContaining({ filename: 'voice.webm', bytes: 800 })]);
      const log = fs.readFileSync(sys.logFile, 'utf8');
      expect(log).not.toContain(KEY);
      expect(log).not.toContain('Slack audio clips will be kept as files');
    },
    CASE_TIMEOUT_MS,
  );

  it(
    "voice.service = auto next to Feishu (Feishu's PCM-only speech): the clip reaches Claude as a file, the answer says why",
    async () => {
      const { s: sys, sl: slack } = await start(() => undefined);
      showLogOnFailure(() => sys);
      await clipInSession(sys, slack, 'sl-voice-kept', 'F0SYSKEEP', webmClip(700));
      const why =
        'cannot be transcribed with Feishu\'s speech service; set api_key (an OpenAI-compatible transcription endpoint) and service = "openai"';
      await until(
        () => answered(slack, '🎤', why, 'The clip was saved as a file', 'ok: [file: '),
        'the answer with the file',
        45_000,
      );
      const asked = sys.anth.messageRequests().map((r) => r.scriptRequest?.lastUserText ?? '');
      const line = asked.find((t) => t.startsWith('[file: '));
      expect(line).toMatch(/^\[file: \S+audio_message\.webm \(/);
      const local = /^\[file: (\S+audio_message\.webm)/.exec(line ?? '')?.[1] ?? '';
      expect(fs.readFileSync(local)).toEqual(webmClip(700));
      expect(slack.downloads).toEqual(['F0SYSKEEP']);
      expect(fs.readFileSync(sys.logFile, 'utf8')).toContain('Slack audio clips will be kept as files');
    },
    CASE_TIMEOUT_MS,
  );
});
