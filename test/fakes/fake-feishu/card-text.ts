const TEXT_TAGS = new Set(['plain_text', 'lark_md', 'markdown']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every text a user would read on a card (JSON 1.0 or 2.0): the `content` of each `plain_text`,
 * `lark_md` and `markdown` element, header first, in document order, one per line.
 */
export function cardText(card: unknown): string {
  const out: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    if (!isRecord(node)) return;
    if (typeof node.tag === 'string' && TEXT_TAGS.has(node.tag) && typeof node.content === 'string') {
      out.push(node.content);
    }
    Object.values(node).forEach(walk);
  };
  walk(card);
  return out.join('\n');
}

function postText(content: unknown): string {
  if (!isRecord(content)) return '';
  const body = 'content' in content || 'title' in content ? content : Object.values(content).find(isRecord);
  if (!isRecord(body)) return '';
  const lines: string[] = [];
  if (typeof body.title === 'string' && body.title !== '') lines.push(body.title);
  for (const paragraph of Array.isArray(body.content) ? body.content : []) {
    if (!Array.isArray(paragraph)) continue;
    lines.push(
      paragraph
        .map((el: unknown) => {
          if (!isRecord(el)) return '';
          if (typeof el.text === 'string') return el.text;
          if (el.tag === 'at') return `@${typeof el.user_name === 'string' ? el.user_name : String(el.user_id)}`;
          return '';
        })
        .join(''),
    );
  }
  return lines.join('\n');
}

/**
 * What the user sees of a message of `msgType` whose parsed content is `content`: the text of a
 * `text`, the lines of a `post`, the texts of an `interactive` card (a CardKit reference
 * `{type:'card', data:{card_id}}` is resolved through `cardById`); other types as JSON.
 */
export function visibleText(msgType: string, content: unknown, cardById: (cardId: string) => unknown): string {
  if (msgType === 'text') return isRecord(content) && typeof content.text === 'string' ? content.text : '';
  if (msgType === 'post') return postText(content);
  if (msgType === 'interactive') {
    if (
      isRecord(content) &&
      content.type === 'card' &&
      isRecord(content.data) &&
      typeof content.data.card_id === 'string'
    ) {
      return cardText(cardById(content.data.card_id));
    }
    return cardText(content);
  }
  return JSON.stringify(content);
}
