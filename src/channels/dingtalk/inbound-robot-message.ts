import type { InboundMessage } from '../../bridge/inbound-message.js';

/** What one robot-message CALLBACK means to the channel. */
export type RobotDecision = { kind: 'message'; message: InboundMessage } | { kind: 'ignore'; reason: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Message types we name when they are not supported yet (the bridge answers the owner so). */
const UNSUPPORTED = ['file', 'audio', 'video'];

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
 * as the image key, fetched later by `prepare`.
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
    default:
      if (typeof data.msgtype === 'string' && UNSUPPORTED.includes(data.msgtype)) unsupportedType = data.msgtype;
      else return { kind: 'ignore', reason: `message type ${String(data.msgtype)}` };
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
    receivedAt: now.toISOString(),
    ...(unsupportedType ? { unsupportedType } : {}),
  };
  return { kind: 'message', message };
}
