type Json = Record<string, unknown>;

/** One AI card: its template, the chat's staffId, the variables now, how many stream calls. */
export interface FakeAiCard {
  templateId: string;
  userId: string;
  params: Record<string, string>;
  streams: number;
}

/**
 * The fake DingTalk's AI cards: `POST /v1.0/card/instances/createAndDeliver` once per outTrackId
 * into a robot single chat (`dtv1.card//IM_ROBOT.<staffId>`, this robot), then `PUT
 * /v1.0/card/streaming` (one variable, a guid per call) and `PUT /v1.0/card/instances` (variables).
 */
export class FakeAiCards {
  readonly calls: Array<{ path: string; body: Json }> = [];
  readonly cards = new Map<string, FakeAiCard>();

  /** One card call (`METHOD /path`) → the HTTP status and body DingTalk answers. */
  handle(call: string, body: Json, robotCode: string): [number, Json] {
    this.calls.push({ path: call, body });
    const id = String(body.outTrackId ?? '');
    const card = this.cards.get(id);
    const params = ((body.cardData as Json | undefined)?.cardParamMap ?? {}) as Record<string, string>;
    if (call === 'POST /v1.0/card/instances/createAndDeliver') {
      const space = /^dtv1\.card\/\/IM_ROBOT\.(.+)$/.exec(String(body.openSpaceId ?? ''));
      const deliver = (body.imRobotOpenDeliverModel ?? {}) as Json;
      if (!body.cardTemplateId || !id || !space || deliver.robotCode !== robotCode)
        return [400, { code: 'invalidParameter', message: 'template, outTrackId, space, robot' }];
      if (card) return [400, { code: 'outTrackIdExists', message: 'outTrackId already used' }];
      this.cards.set(id, {
        templateId: String(body.cardTemplateId),
        userId: space[1] ?? '',
        params: { ...params },
        streams: 0,
      });
    } else if (!card) return [400, { code: 'cardNotFound', message: id }];
    else if (call === 'PUT /v1.0/card/streaming') {
      if (typeof body.key !== 'string' || typeof body.content !== 'string' || !body.guid)
        return [400, { code: 'invalidParameter', message: 'key, content, guid' }];
      card.params[body.key] = body.content;
      card.streams += 1;
    } else if (call === 'PUT /v1.0/card/instances') Object.assign(card.params, params);
    else return [404, { code: 'NotFound' }];
    return [200, { success: true, result: { outTrackId: id } }];
  }
}
