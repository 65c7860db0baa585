import { randomInt } from 'node:crypto';
import { apiError, apiOk, FeishuCode, parseJsonString, refuse, type ApiReply, type ErrorReply } from './api-reply.js';
import type { RateWindow } from './rate-window.js';

/** Largest card JSON Feishu accepts (30 KB). */
export const MAX_CARD_BYTES = 30 * 1024;

/** One accepted CardKit call, in arrival order. */
export interface CardKitOp {
  op: 'create' | 'content' | 'settings' | 'update';
  card_id: string;
  element_id?: string;
  sequence?: number;
  uuid?: string;
  /** The full text of a `content` op. */
  content?: string;
  at: number;
}

interface CardEntity {
  card: Record<string, unknown>;
  lastSequence: number;
  uuids: Set<string>;
  sentAs?: string;
}

type Body = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function findElement(node: unknown, elementId: string): Record<string, unknown> | undefined {
  if (Array.isArray(node)) {
    for (const child of node) {
      const hit = findElement(child, elementId);
      if (hit) return hit;
    }
    return undefined;
  }
  if (!isRecord(node)) return undefined;
  if (node.element_id === elementId) return node;
  for (const value of Object.values(node)) {
    const hit = findElement(value, elementId);
    if (hit) return hit;
  }
  return undefined;
}

type Outcome<T> = { ok: T } | { error: ApiReply };

/** Parses a `{type:'card_json', data:'<JSON 2.0 card>'}` body part, or says why not. */
function parseCardJson(part: unknown): Outcome<Record<string, unknown>> {
  if (!isRecord(part) || part.type !== 'card_json' || typeof part.data !== 'string') {
    return {
      error: apiError(400, FeishuCode.cardInvalid, "card must be {type:'card_json', data:'<card JSON string>'}"),
    };
  }
  if (Buffer.byteLength(part.data, 'utf8') > MAX_CARD_BYTES) {
    return {
      error: apiError(400, FeishuCode.contentTooLong, 'The length of the card content reaches its limit (30 KB).'),
    };
  }
  const card = parseJsonString(part.data);
  if (!isRecord(card) || card.schema !== '2.0') {
    return { error: apiError(400, FeishuCode.cardInvalid, 'CardKit accepts card JSON 2.0 only (schema "2.0")') };
  }
  return { ok: card };
}

/**
 * CardKit card entities: create from card JSON 2.0, stream element text, change settings, replace
 * the card. Every call on an entity needs a strictly increasing `sequence` and shares the entity's
 * 10-operations-per-second budget; a repeated `uuid` on an entity is answered OK and changes nothing.
 */
export class CardKitCards {
  readonly ops: CardKitOp[] = [];
  private readonly cards = new Map<string, CardEntity>();

  constructor(
    private readonly rate: RateWindow,
    private readonly rateLimitReply: ErrorReply,
    private readonly clock: () => number,
  ) {}

  /** The entity's current card JSON (after every accepted update), or undefined. */
  cardJson(cardId: string): Record<string, unknown> | undefined {
    return this.cards.get(cardId)?.card;
  }

  /** Binds a card entity to the message that sends it; an entity can be sent once only. */
  markSent(cardId: string, messageId: string): ErrorReply | undefined {
    const entity = this.cards.get(cardId);
    if (!entity) return { status: 400, code: FeishuCode.cardContentFailed, msg: `card_id ${cardId} not found` };
    if (entity.sentAs !== undefined && entity.sentAs !== messageId) {
      return { status: 400, code: FeishuCode.cardContentFailed, msg: 'a card entity can only be sent once' };
    }
    entity.sentAs = messageId;
    return undefined;
  }

  /** `POST /open-apis/cardkit/v1/cards` → `data.card_id`. */
  create(body: Body): ApiReply {
    const card = parseCardJson(body);
    if ('error' in card) return card.error;
    const cardId = String(7_300_000_000_000_000_000n + BigInt(randomInt(0, 2 ** 47)));
    this.cards.set(cardId, { card: card.ok, lastSequence: 0, uuids: new Set() });
    this.ops.push({ op: 'create', card_id: cardId, at: this.clock() });
    return apiOk({ card_id: cardId });
  }

  /** `PUT …/cards/:card_id/elements/:element_id/content` body `{content, sequence, uuid?}`. */
  content(cardId: string, elementId: string, body: Body): ApiReply {
    return this.operate(cardId, body, 'content', (entity) => {
      const config = isRecord(entity.card.config) ? entity.card.config : {};
      if (config.streaming_mode !== true) {
        return { error: apiError(400, FeishuCode.cardStreamingClosed, 'streaming_mode is not on for this card') };
      }
      const element = findElement(entity.card.body, elementId);
      if (!element) return { error: apiError(400, FeishuCode.cardInvalid, `element_id ${elementId} not found`) };
      if (typeof body.content !== 'string') {
        return { error: apiError(400, FeishuCode.cardInvalid, 'content must be a string') };
      }
      element.content = body.content;
      return { ok: { element_id: elementId, content: body.content } };
    });
  }

  /** `PATCH …/cards/:card_id/settings` body `{settings:'{"config":{…},"card_link":{…}}', sequence, uuid?}`. */
  settings(cardId: string, body: Body): ApiReply {
    return this.operate(cardId, body, 'settings', (entity) => {
      const settings = parseJsonString(body.settings);
      if (!isRecord(settings)) {
        return { error: apiError(400, FeishuCode.cardInvalid, 'settings must be a JSON object string') };
      }
      if (isRecord(settings.config)) {
        entity.card.config = { ...(isRecord(entity.card.config) ? entity.card.config : {}), ...settings.config };
      }
      if (settings.card_link !== undefined) entity.card.card_link = settings.card_link;
      return { ok: {} };
    });
  }

  /** `PUT …/cards/:card_id` body `{card:{type:'card_json', data}, sequence, uuid?}` (full replacement). */
  update(cardId: string, body: Body): ApiReply {
    return this.operate(cardId, body, 'update', (entity) => {
      const card = parseCardJson(body.card);
      if ('error' in card) return card;
      entity.card = card.ok;
      return { ok: {} };
    });
  }

  private operate(
    cardId: string,
    body: Body,
    op: CardKitOp['op'],
    apply: (entity: CardEntity) => Outcome<{ element_id?: string; content?: string }>,
  ): ApiReply {
    const entity = this.cards.get(cardId);
    if (!entity) return apiError(400, FeishuCode.cardInvalid, `card_id ${cardId} not found`);
    const uuid = typeof body.uuid === 'string' && body.uuid !== '' ? body.uuid : undefined;
    if (uuid !== undefined && entity.uuids.has(uuid)) return apiOk({});
    if (!this.rate.tryTake(cardId)) return refuse(this.rateLimitReply);
    const sequence = body.sequence;
    if (typeof sequence !== 'number' || !Number.isInteger(sequence) || sequence <= entity.lastSequence) {
      return apiError(
        400,
        FeishuCode.cardSequenceInvalid,
        `sequence must be an integer greater than ${entity.lastSequence}, got ${String(sequence)}`,
      );
    }
    const outcome = apply(entity);
    if ('error' in outcome) return outcome.error;
    const applied = outcome.ok;
    entity.lastSequence = sequence;
    if (uuid !== undefined) entity.uuids.add(uuid);
    this.ops.push({
      op,
      card_id: cardId,
      sequence,
      at: this.clock(),
      ...(uuid === undefined ? {} : { uuid }),
      ...(applied.element_id === undefined ? {} : { element_id: applied.element_id }),
      ...(applied.content === undefined ? {} : { content: applied.content }),
    });
    return apiOk({});
  }
}
