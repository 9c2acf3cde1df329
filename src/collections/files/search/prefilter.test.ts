import { describe, expect, it } from 'vitest';
import { compileRequiredText, requiredText } from './prefilter.js';

describe('requiredText', () => {
  it('takes the longest literal of each top-level alternative', () => {
    expect(requiredText('needle', 'u')).toEqual({ literals: ['needle'], caseless: false, unicodeFolds: false });
    expect(requiredText('quuxNever|zzyzxMarker', 'u')?.literals).toEqual(['quuxNever', 'zzyzxMarker']);
    expect(requiredText('function\\s+handle\\w+Event', 'u')?.literals).toEqual(['function']);
    expect(requiredText('loadConfig\\(', 'u')?.literals).toEqual(['loadConfig(']);
    expect(requiredText('naïve needle-2 #x', '')?.literals).toEqual(['naïve needle-2 #x']);
    expect(requiredText('needle', 'iu')).toEqual({ literals: ['needle'], caseless: true, unicodeFolds: true });
    expect(requiredText('needle', 'i')).toEqual({ literals: ['needle'], caseless: true, unicodeFolds: false });
  });

  it('leaves out quantified characters, groups, classes, anchors and escapes with arguments', () => {
    expect(requiredText('colou?r', 'u')?.literals).toEqual(['colo']);
    expect(requiredText('ab+c', 'u')?.literals).toEqual(['a']);
    expect(requiredText('abc{2}d', 'u')?.literals).toEqual(['ab']);
    expect(requiredText('x(?:abc)+yy', 'u')?.literals).toEqual(['yy']);
    expect(requiredText('^import [a-z]+ from$', 'u')?.literals).toEqual(['import ']);
    expect(requiredText('\\x41BCD|\\u{1F600}xy|\\p{Letter}zz', 'u')?.literals).toEqual(['BCD', 'xy', 'zz']);
    expect(requiredText('a\\.?bc', 'u')?.literals).toEqual(['bc']);
    expect(requiredText('(a|b)cde', 'u')?.literals).toEqual(['cde']);
    expect(requiredText('caféau', 'iu')?.literals).toEqual(['caf']);
  });

  it('gives nothing when an alternative can match without a literal', () => {
    for (const pattern of ['a|\\d+', '.*', '[abc]', '(abc)', 'abc|', '|abc', 'a?', '\\b\\w+', '\\w+']) expect([pattern, requiredText(pattern, 'u')]).toEqual([pattern, undefined]);
    expect(requiredText(Array.from({ length: 17 }, (_, index) => `word${index}`).join('|'), 'u')).toBeUndefined();
  });
});

describe('compileRequiredText', () => {
  const test = (pattern: string, flags: string, text: string): boolean => compileRequiredText(requiredText(pattern, flags)!)(Buffer.from(text, 'utf8'));

  it('finds case-sensitive literals as bytes, any of the alternatives', () => {
    expect(test('needle', 'u', 'a haystack with a needle in it')).toBe(true);
    expect(test('needle', 'u', 'a haystack with a Needle in it')).toBe(false);
    expect(test('quuxNever|zzyzxMarker', 'u', 'x zzyzxMarker')).toBe(true);
    expect(test('quuxNever|zzyzxMarker', 'u', 'quuxNeve zzyzxMarke')).toBe(false);
    expect(test('naïve', 'u', 'so naïve')).toBe(true);
  });

  it('finds caseless literals in any case, at the start and end of the bytes', () => {
    expect(test('quuxNeverThereMarker', 'iu', 'QUUXnEVERtHEREmARKER')).toBe(true);
    expect(test('quuxNeverThereMarker', 'iu', 'xx quuxNeverThereMarke')).toBe(false);
    expect(test('q', 'iu', 'Q')).toBe(true);
    expect(test('a_b', 'i', 'xA_B')).toBe(true);
    expect(test('a_b', 'i', 'xA-B')).toBe(false);
    expect(test('a\\[b', 'i', 'A[B')).toBe(true);
  });

  it('counts the Kelvin sign and the long s, which /k/iu and /s/iu match', () => {
    expect(/kiss/iu.test('\u212aiſſ')).toBe(true);
    expect(test('kiss', 'iu', '\u212aiſſ')).toBe(true);
    expect(test('kiss', 'i', '\u212aiſſ')).toBe(false);
    expect(/kiss/i.test('\u212aiſſ')).toBe(false);
  });

  it('never says no to a file that has a matching line (random patterns and texts)', () => {
    // A fixed-seed generator, so a failure can be replayed.
    let seed = 1234567;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const atoms = ['a', 'b', 'k', 's', 'K', 'S', 'x', '.', '\\.', '\\d', '[ab]', '(ab|c)', 'é', '\\w', '_', '-', ' ', '\\x61', '\\u{62}', '\\u0063', '\\b', '\\1', '\\cJ', '{', '}'];
    const quantifiers = ['', '', '', '?', '*', '+', '{2}', '{0,1}'];
    const letters = ['a', 'b', 'A', 'B', 'k', 'K', 's', 'S', '\u212a', 'ſ', 'x', 'X', '.', '_', '-', ' ', 'é', 'É', '1', 'c', '\n'];
    let checked = 0;
    for (let round = 0; round < 3000; round += 1) {
      const alternatives = Array.from({ length: 1 + Math.floor(random() * 3) }, () => Array.from({ length: 1 + Math.floor(random() * 5) }, () => pick(atoms) + pick(quantifiers)).join(''));
      const source = alternatives.join('|');
      const flags = pick(['u', 'iu', 'i', '']);
      let regex: RegExp;
      try {
        regex = new RegExp(source, flags);
      } catch {
        continue;
      }
      const required = requiredText(source, flags);
      if (required === undefined) continue;
      const mayMatch = compileRequiredText(required);
      for (let sample = 0; sample < 20; sample += 1) {
        const text = Array.from({ length: Math.floor(random() * 12) }, () => pick(letters)).join('');
        const matches = text.split('\n').some((line) => regex.test(line));
        if (matches) {
          checked += 1;
          expect([source, flags, text, mayMatch(Buffer.from(text, 'utf8'))]).toEqual([source, flags, text, true]);
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });
});
