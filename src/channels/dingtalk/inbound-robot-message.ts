import type { InboundFile, InboundMessage, InboundVoice } from '../../bridge/inbound-message.js';

/** What one robot-message CALLBACK means to the channel. */
export type RobotDecision = { kind: 'message'; message: InboundMessage } | { kind: 'ignore'; reason: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Message types taken as a file when they carry a `downloadCode`, else named as not supported yet. */
const FILE_TYPES = ['file', 'audio', 'video'];

/**
 * The file of a `file` / `audio` / `video` message: its `downloadCode` as the key (fetched later by
 * `prepare`) and the name shown (`content.fileName`; audio and video have none, so one is made
 * from the message id and `videoType`). Undefined without a `downloadCode`.
 */
function fileOf(msgtype: string, content: Obj, msgId: string): InboundFile | undefined {
  const key = str(content.downloadCode);
  if (!key) return undefined;
  const video = str(content.videoType)?.replace(/[^A-Za-z0-9]/g, '');
  const name =
    str(content.fileName) ??
    (msgtype === 'video' ? `video-${msgId}${video ? `.${video}` : ''}` : `${msgtype}-${msgId}`);
  return { key, name };
}

/**
 * A voice message DingTalk has already transcribed (`content.recognition`; '' = nothing heard): the
 * text is the message's voice transcript, so no speech service is asked. Undefined without one.
 */
function recognizedVoice(content: Obj): InboundVoice | undefined {
  if (typeof content.recognition !== 'string') return undefined;
  const ms = Number(content.duration);
  return { transcript: content.recognition.trim(), ...(Number.isSafeInteger(ms) && ms >= 0 ? { durationMs: ms } : {}) };
}

/** The pictures and text of a `richText` message, in order. */
function richText(content: Obj): { text: string; codes: string[] } {
  const parts = Array.isArray(content.richText) ? content.richText.filter(isObj) : [];
  const text: string[] = [];
  const codes: string[] = [];
  for (const part of parts) {
    const code = str(part.downloadCode) ?? str(part.pictureDownloadCode);
    if (part.type === 'picture' && code) codes.push(code);
    else if (typeof part.text === 'string') text.push(part.text);
  }
  return { text: text.join(''), codes };
}

/**
 * A robot message's `data` (the JSON inside a CALLBACK frame of topic
 * `/v1.0/im/bot/messages/get`) → an `InboundMessage`, or nothing. Only single chats
 * (`conversationType` "1") count; groups are ignored. The id is `dingtalk:<msgId>`, the same on
 * every re-push. The sender is the `senderStaffId` (a user from outside the organisation has
 * none: the `senderId` stands in, and is never an owner). Pictures carry their `downloadCode`
 * as the image key, fetched later by `prepare`; a voice message DingTalk transcribed is the
 * message's voice with its transcript; files, audio and video with a `downloadCode` become `files`
 * the same way (without one they are named as not supported).
 */
export function convertRobotMessage(data: unknown, now: Date): RobotDecision {
  if (!isObj(data)) return { kind: 'ignore', reason: 'not a robot message' };
  const msgId = str(data.msgId);
  const user = str(data.senderStaffId) ?? str(data.senderId);
  const chatId = str(data.conversationId) ?? user;
  if (!msgId || !user || !chatId) return { kind: 'ignore', reason: 'incomplete' };
  if (data.conversationType !== '1') return { kind: 'ignore', reason: 'not a single chat' };
  const content = isObj(data.content) ? data.content : {};
  let text = '';
  let codes: string[] = [];
  let files: InboundFile[] = [];
  let voice: InboundVoice | undefined;
  let unsupportedType: string | undefined;
  switch (data.msgtype) {
    case 'text':
      text = isObj(data.text) && typeof data.text.content === 'string' ? data.text.content : '';
      break;
    case 'picture': {
      const code = str(content.downloadCode) ?? str(content.pictureDownloadCode);
      codes = code ? [code] : [];
      break;
    }
    case 'richText':
      ({ text, codes } = richText(content));
      break;
    default: {
      if (typeof data.msgtype !== 'string' || !FILE_TYPES.includes(data.msgtype))
        return { kind: 'ignore', reason: `message type ${String(data.msgtype)}` };
      // Audio DingTalk transcribed is a voice message; the rest is kept as a file.
      voice = data.msgtype === 'audio' ? recognizedVoice(content) : undefined;
      if (voice) break;
      const file = fileOf(data.msgtype, content, msgId);
      if (file) files = [file];
      else unsupportedType = data.msgtype;
    }
  }
  const message: InboundMessage = {
    id: `dingtalk:${msgId}`,
    channel: 'dingtalk',
    platformMessageId: msgId,
    userId: user,
    chatId,
    chatType: 'p2p',
    // DingTalk puts a space before the text of a message typed after the robot's name.
    text: text.trim(),
    images: codes.map((key) => ({ key })),
    ...(files.length > 0 ? { files } : {}),
    ...(voice ? { voice } : {}),
    receivedAt: now.toISOString(),
    ...(unsupportedType ? { unsupportedType } : {}),
  };
  return { kind: 'message', message };
}
