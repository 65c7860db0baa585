import { describe, expect, it } from 'vitest';
import { tildify } from './tildify.js';

describe('tildify', () => {
  it('shortens the home directory only on a segment boundary', () => {
    expect(tildify('/h/u', '/h/u')).toBe('~');
    expect(tildify('/h/u/Git', '/h/u')).toBe('~/Git');
    expect(tildify('/h/u2/Git', '/h/u')).toBe('/h/u2/Git');
    expect(tildify('/elsewhere', '/h/u')).toBe('/elsewhere');
  });

  it('keeps names that start with two dots and leaves paths alone without a home', () => {
    expect(tildify('/h/u/..foo', '/h/u')).toBe('~/..foo');
    expect(tildify('/h/u/x', '')).toBe('/h/u/x');
    expect(tildify('/h/u/x', '/h/u/')).toBe('~/x');
  });
});
