import { describe, expect, it } from 'vitest';
import { cleanedSpellings, insideTails, lineSuffix, outsideForm, withoutRootName } from './cleanups.js';

describe('cleanedSpellings', () => {
  it('gives the literal path first, then every combination of the cleanups that change it', () => {
    expect(cleanedSpellings('src/app.ts')).toEqual([{ path: 'src/app.ts', cleanups: [] }]);
    expect(cleanedSpellings('"src\\app.ts"\n').map((spelling) => spelling.path)).toEqual([
      '"src\\app.ts"\n',
      '"src\\app.ts"',
      'src\\app.ts',
      '"src/app.ts"\n',
      '"src/app.ts"',
      'src/app.ts',
    ]);
    expect(cleanedSpellings('"src\\app.ts"\n').at(-1)).toEqual({ path: 'src/app.ts', cleanups: ['trim', 'quotes', 'backslash'] });
  });

  it('reads `file://` URLs, decoding their escapes, and leaves other URLs alone', () => {
    expect(cleanedSpellings('file:///work/my%20shop/a.ts')).toContainEqual({ path: '/work/my shop/a.ts', cleanups: ['file-url'] });
    expect(cleanedSpellings('https://example.com/a.ts').map((spelling) => spelling.path)).toEqual(['https://example.com/a.ts']);
  });

  it('decodes only real percent escapes', () => {
    expect(cleanedSpellings('100%.txt')).toHaveLength(1);
    expect(cleanedSpellings('a%ZZ%20b').map((spelling) => spelling.path)).toEqual(['a%ZZ%20b']);
    expect(cleanedSpellings('a%20b').at(-1)).toEqual({ path: 'a b', cleanups: ['percent'] });
  });

  it('takes a leading `@` away, but not from `@/` or a lone `@`', () => {
    expect(cleanedSpellings('@src/a.ts').at(-1)?.path).toBe('src/a.ts');
    expect(cleanedSpellings('@/a.ts')).toHaveLength(1);
    expect(cleanedSpellings('@')).toHaveLength(1);
  });

  it('unwraps curly quotes too, and never quotes that are the whole path', () => {
    expect(cleanedSpellings('\u201csrc/a.ts\u201d').at(-1)?.path).toBe('src/a.ts');
    expect(cleanedSpellings('""')).toHaveLength(1);
  });
});

describe('lineSuffix', () => {
  it.each([
    ['src/app.ts:12', { path: 'src/app.ts', suffix: ':12', startLine: 12 }],
    ['src/app.ts:12:5', { path: 'src/app.ts', suffix: ':12:5', startLine: 12 }],
    ['src/app.ts:12-20', { path: 'src/app.ts', suffix: ':12-20', startLine: 12, endLine: 20 }],
    ['src/app.ts#L12', { path: 'src/app.ts', suffix: '#L12', startLine: 12 }],
    ['src/app.ts#L12-L20', { path: 'src/app.ts', suffix: '#L12-L20', startLine: 12, endLine: 20 }],
    ['src/app.ts:20-12', { path: 'src/app.ts', suffix: ':20-12', startLine: 20 }],
  ])('%s', (given, expected) => {
    expect(lineSuffix(given)).toEqual(expected);
  });

  it('is nothing for a path without one', () => {
    expect(lineSuffix('src/app.ts')).toBeUndefined();
    expect(lineSuffix('src/app.ts:0')).toBeUndefined();
    expect(lineSuffix('C:')).toBeUndefined();
  });
});

describe('paths that start outside the workspace', () => {
  it('knows home, absolute and drive forms', () => {
    expect(outsideForm('~/a')).toBe('home');
    expect(outsideForm('~')).toBe('home');
    expect(outsideForm('~me/a')).toBe('home');
    expect(outsideForm('~draft.txt')).toBeUndefined();
    expect(outsideForm('/a/b')).toBe('absolute');
    expect(outsideForm('C:/a')).toBe('drive');
    expect(outsideForm('src/a')).toBeUndefined();
  });

  it('tries the part after the folder named like the root first, then every tail, longest first', () => {
    expect(insideTails('/home/me/shop/src/app.ts', 'shop')).toEqual(['src/app.ts', 'home/me/shop/src/app.ts', 'me/shop/src/app.ts', 'shop/src/app.ts', 'app.ts']);
    expect(insideTails('~/src/app.ts', 'shop')).toEqual(['src/app.ts', 'app.ts']);
    expect(insideTails('C:/w/src/app.ts', 'shop')).toEqual(['w/src/app.ts', 'src/app.ts', 'app.ts']);
  });

  it('takes a leading root name off a relative path only', () => {
    expect(withoutRootName('shop/src/app.ts', 'shop')).toBe('src/app.ts');
    expect(withoutRootName('./shop/src/app.ts', 'shop')).toBe('src/app.ts');
    expect(withoutRootName('shop', 'shop')).toBeUndefined();
    expect(withoutRootName('src/shop/app.ts', 'shop')).toBeUndefined();
  });
});
