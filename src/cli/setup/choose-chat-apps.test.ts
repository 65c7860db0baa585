import { describe, expect, it } from 'vitest';
import { parseChatApps } from './choose-chat-apps.js';

const ids = (text: string) => parseChatApps(text)?.map((a) => a.id);

describe('parseChatApps', () => {
  it('takes ids, aliases and numbers in any order and case, in registry order, once each', () => {
    expect(ids('telegram')).toEqual(['telegram']);
    expect(ids('Telegram, FEISHU')).toEqual(['feishu', 'telegram']);
    expect(ids('tg lark 飞书')).toEqual(['feishu', 'telegram']);
    expect(ids('2，1')).toEqual(['feishu', 'telegram']);
  });

  it('"none" (or nothing) is no app; an unknown word makes the whole answer invalid', () => {
    expect(ids('none')).toEqual([]);
    expect(ids('')).toEqual([]);
    expect(ids('telegram, whatsapp')).toBeUndefined();
    expect(ids('99')).toBeUndefined();
  });
});
