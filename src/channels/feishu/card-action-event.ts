import type { ActionResult } from '../../bridge/channel.js';
import type { CardAction } from '../../bridge/reply-model.js';
import type { Language } from '../../core/i18n.js';
import { asCardReply, renderCard, type CardJson } from './render-card.js';

/** A button click as the bridge needs it. `action` is undefined when the value is not one of ours. */
export interface CardClick {
  userId: string;
  messageId?: string;
  action?: CardAction;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function s(v: Record<string, unknown>, key: string): string | undefined {
  const x = v[key];
  return typeof x === 'string' && x.length > 0 && x.length <= 4096 ? x : undefined;
}

/**
 * The `CardAction` a button carried (rendered into `behaviors[].value` by `renderCard`), checked
 * field by field: a forged or foreign value yields undefined, never a half-valid action. Whether
 * the click is the owner's and still pending is the bridge's decision (nonces).
 */
export function parseCardAction(value: unknown): CardAction | undefined {
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v) as unknown;
    } catch {
      return undefined;
    }
  }
  if (!isRecord(v)) return undefined;
  switch (v.type) {
    case 'permission': {
      const requestId = s(v, 'requestId');
      const nonce = s(v, 'nonce');
      const decision = v.decision;
      if (!requestId || !nonce || (decision !== 'allow' && decision !== 'deny' && decision !== 'always'))
        return undefined;
      return { type: 'permission', requestId, nonce, decision };
    }
    case 'question': {
      const requestId = s(v, 'requestId');
      const nonce = s(v, 'nonce');
      const answer = s(v, 'answer');
      const question = v.question;
      if (question !== undefined && !(typeof question === 'number' && Number.isSafeInteger(question) && question >= 0))
        return undefined;
      if (!requestId || !nonce || !answer) return undefined;
      return { type: 'question', requestId, nonce, answer, ...(question !== undefined ? { question } : {}) };
    }
    case 'switch': {
      const sessionId = s(v, 'sessionId');
      return sessionId ? { type: 'switch', sessionId } : undefined;
    }
    case 'select_dir':
    case 'browse_dir': {
      const path = s(v, 'path');
      return path ? { type: v.type, path } : undefined;
    }
    case 'force_send': {
      const messageId = s(v, 'messageId');
      const nonce = s(v, 'nonce');
      return messageId && nonce ? { type: 'force_send', messageId, nonce } : undefined;
    }
    case 'stop': {
      const messageId = s(v, 'messageId');
      const nonce = s(v, 'nonce');
      return messageId && nonce ? { type: 'stop', messageId, nonce } : undefined;
    }
    case 'recovery': {
      const messageId = s(v, 'messageId');
      const nonce = s(v, 'nonce');
      const choice = v.choice;
      if (!messageId || !nonce || (choice !== 'continue' && choice !== 'skip')) return undefined;
      return { type: 'recovery', messageId, nonce, choice };
    }
    default:
      return undefined;
  }
}

/**
 * Reads a (flattened) `card.action.trigger` event: the clicker's open_id, the card's message id
 * and the button's action. Undefined when there is no operator.
 */
export function parseCardClick(data: unknown): CardClick | undefined {
  if (!isRecord(data) || !isRecord(data.operator)) return undefined;
  const userId = s(data.operator, 'open_id');
  if (!userId) return undefined;
  const messageId = isRecord(data.context) ? s(data.context, 'open_message_id') : undefined;
  const action = isRecord(data.action) ? parseCardAction(data.action.value) : undefined;
  return { userId, ...(messageId ? { messageId } : {}), ...(action ? { action } : {}) };
}

/** What the handler returns to Feishu in the ack: `{toast:{type, content}}` and a replacement card. */
export interface CardCallbackAnswer {
  toast?: { type: 'success' | 'info' | 'warning' | 'error'; content: string };
  card?: { type: 'raw'; data: CardJson };
}

/** The callback answer for a bridge `ActionResult` (the card rendered as JSON 2.0, type `raw`). */
export function callbackAnswer(result: ActionResult, lang: Language): CardCallbackAnswer {
  return {
    ...(result.toast ? { toast: { type: result.toast.type, content: result.toast.text } } : {}),
    ...(result.card
      ? { card: { type: 'raw' as const, data: renderCard(asCardReply(result.card), { lang }).card } }
      : {}),
  };
}
