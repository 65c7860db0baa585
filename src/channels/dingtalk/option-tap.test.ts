import { describe, expect, it } from 'vitest';
import { parseChoice, tapContent, tapUrl } from './option-tap.js';

describe('the text a tapped option sends', () => {
  it('names the option and the prompt, and its link target encodes every reserved character', () => {
    expect(tapContent(2, 'k3f9')).toBe('2 #k3f9');
    expect(tapUrl('2 #k3f9')).toBe('dtmd://dingtalkclient/sendMessage?content=2%20%23k3f9');
    expect(tapUrl("a(b)*!'&=?中")).toBe(
      'dtmd://dingtalkclient/sendMessage?content=a%28b%29%2A%21%27%26%3D%3F%E4%B8%AD',
    );
    const back = new URL(tapUrl('x (y) ]')).searchParams.get('content');
    expect(back).toBe('x (y) ]');
  });

  it('reads a number alone or a tap back, and nothing else', () => {
    expect(parseChoice('2')).toEqual({ n: 2 });
    expect(parseChoice(' 12 ')).toEqual({ n: 12 });
    expect(parseChoice('1 #k3f9')).toEqual({ n: 1, token: 'k3f9' });
    expect(parseChoice(tapContent(3, 'abcd'))).toEqual({ n: 3, token: 'abcd' });
    expect(parseChoice('  1   #  K3F9  ')).toEqual({ n: 1, token: 'k3f9' });
    expect(parseChoice('1#k3f9')).toEqual({ n: 1, token: 'k3f9' });
    // A token no prompt was given (0, 1, l, o are never handed out) still reads as a tap.
    expect(parseChoice('9 #k0f1')).toEqual({ n: 9, token: 'k0f1' });
    // Full-width digits, ＃, letters and the ideographic space (a Chinese keyboard) count as ASCII.
    expect(parseChoice('２')).toEqual({ n: 2 });
    expect(parseChoice('１\u3000＃ｋ３ｆ９')).toEqual({ n: 1, token: 'k3f9' });
    for (const junk of [
      '1 #',
      '#k3f9',
      '1 #k3f',
      '1 #k3f99',
      '1 please',
      '0',
      '00 #k3f9',
      '123',
      '',
      '1 ## k3f9',
      '-1',
      '1.',
    ])
      expect(parseChoice(junk), junk).toBeUndefined();
  });
});
