import { describe, expect, it } from 'vitest';
import { scanArena } from './literal-scan.js';
import { compileRequiredText, literalFinders } from './prefilter.js';
import { requiredText } from './required-literals.js';

describe('requiredText', () => {
  it('takes the longest literal of each top-level alternative', () => {
    expect(requiredText('needle', 'u')).toEqual({ literals: ['needle'], caseless: false, unicodeFolds: false, plain: true });
    expect(requiredText('quuxNever|zzyzxMarker', 'u')?.literals).toEqual(['quuxNever', 'zzyzxMarker']);
    expect(requiredText('function\\s+handle\\w+Event', 'u')?.literals).toEqual(['function']);
    expect(requiredText('loadConfig\\(', 'u')?.literals).toEqual(['loadConfig(']);
    expect(requiredText('naïve needle-2 #x', '')?.literals).toEqual(['naïve needle-2 #x']);
    expect(requiredText('needle', 'iu')).toEqual({ literals: ['needle'], caseless: true, unicodeFolds: true, plain: true });
    expect(requiredText('Needle|TODO', 'i')).toEqual({ literals: ['needle', 'todo'], caseless: true, unicodeFolds: false, plain: true });
    expect(requiredText('needle\\d', 'u')).toEqual({ literals: ['needle'], caseless: false, unicodeFolds: false, plain: false });
  });

  it('multiplies out small classes, bounded repeats and groups, and looks into groups', () => {
    // The issue's own pattern: no plain literal, but every match holds one of two.
    expect(requiredText('[xq]u{2}x\\d{3}', 'u')?.literals).toEqual(['xuux', 'quux']);
    expect(requiredText('colou?r', 'u')?.literals).toEqual(['colo']);
    expect(requiredText('(a|b)cd', 'u')?.literals).toEqual(['acd', 'bcd']);
    expect(requiredText('ab+c', 'u')?.literals).toEqual(['ab']);
    expect(requiredText('abc{2}d', 'u')?.literals).toEqual(['abccd']);
    expect(requiredText('x(?:abc)+yy', 'u')?.literals).toEqual(['abcyy']);
    expect(requiredText('^import [a-z]+ from$', 'u')?.literals).toEqual(['import ']);
    expect(requiredText('\\x41BCD|\\u{1F600}xy|\\p{Letter}zz', 'u')?.literals).toEqual(['ABCD', '😀xy', 'zz']);
    expect(requiredText('a\\.?bc', 'u')?.literals).toEqual(['abc', 'a.bc']);
    expect(requiredText('(a|b)cde', 'u')?.literals).toEqual(['acde', 'bcde']);
    expect(requiredText('(abc)', 'u')?.literals).toEqual(['abc']);
    expect(requiredText('(?=foo)\\bbar\\b', 'u')?.literals).toEqual(['bar']);
    expect(requiredText('[A-C]x', 'i')?.literals).toEqual(['ax', 'bx', 'cx']);
  });

  it('ends a literal at classes, sets, back references, line breaks and, under i, characters beyond ASCII', () => {
    expect(requiredText('caféau', 'iu')?.literals).toEqual(['caf']);
    expect(requiredText('(ab)\\1cd', 'u')?.literals).toEqual(['ab']);
    expect(requiredText('abc\\ndef', 'u')?.literals).toEqual(['abc']);
    expect(requiredText('ab.de', 'u')?.literals).toEqual(['ab']);
    expect(requiredText('a[^x]bcd', 'u')?.literals).toEqual(['bcd']);
  });

  it('gives nothing when an alternative can match without a literal', () => {
    for (const pattern of ['a|\\d+', '.*', '[abc]', 'abc|', '|abc', 'a?', '\\b\\w+', '\\w+', '(?i:abc)', '(unclosed']) expect([pattern, requiredText(pattern, 'u')]).toEqual([pattern, undefined]);
    expect(requiredText(Array.from({ length: 17 }, (_, index) => `word${index}`).join('|'), 'u')).toBeUndefined();
  });
});

/**
 * `text`'s UTF-8 bytes in a `Buffer` of their own, or in this thread's scan arena (where a
 * caseless literal is found by the WebAssembly scan), ending at the arena's last byte now and
 * then, with the next bytes unlike them.
 */
function placed(text: string, where: 'heap' | 'arena', shift = 0): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  if (where === 'heap') return bytes;
  const memory = scanArena()!.first;
  const start = shift % 2 === 0 ? shift % 48 : memory.length - bytes.length;
  bytes.copy(memory, start);
  memory.fill(0x7e, start + bytes.length, Math.min(memory.length, start + bytes.length + 64));
  return memory.subarray(start, start + bytes.length);
}

describe.each(['heap', 'arena'] as const)('compileRequiredText, the bytes in the %s', (where) => {
  const test = (pattern: string, flags: string, text: string): boolean => compileRequiredText(requiredText(pattern, flags)!)(placed(text, where));

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
    const atoms = [
      'a', 'b', 'k', 's', 'K', 'S', 'x', '.', '\\.', '\\d', '[ab]', '(ab|c)', 'é', '\\w', '_', '-', ' ', '\\x61', '\\u{62}', '\\u0063', '\\b', '\\1', '\\cJ', '{', '}',
      // What the syntax tree is read for: small classes and ranges, groups with alternatives, repeats, lookarounds.
      '[xq]', '[a-c]', '[0-2]', '[^a]', '(?:x|yz)', '(?:ab)', '(?=a)', '(?!b)', '(?<=x)', '(?<!a)', '(a|)', '\\n', '[\\dx]', '\\D', '\\s',
    ];
    const quantifiers = ['', '', '', '?', '*', '+', '{2}', '{0,1}', '{1,3}', '{3}', '+?', '{2,}'];
    const letters = ['a', 'b', 'A', 'B', 'k', 'K', 's', 'S', '\u212a', 'ſ', 'x', 'X', '.', '_', '-', ' ', 'é', 'É', '1', 'c', '\n', 'q', 'Q', 'y', 'z', '0', '2'];
    let checked = 0;
    for (let round = 0; round < 6000; round += 1) {
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
      const holds = (line: string): boolean => required.literals.some((literal) => (required.caseless ? line.toLowerCase() : line).includes(literal));
      for (let sample = 0; sample < 40; sample += 1) {
        const text = Array.from({ length: Math.floor(random() * 12) }, () => pick(letters)).join('');
        const lines = text.split('\n');
        if (lines.some((line) => regex.test(line))) {
          checked += 1;
          expect([source, flags, text, mayMatch(placed(text, where, sample))]).toEqual([source, flags, text, true]);
        }
        // Every matching line holds a literal (or a Kelvin sign or long s that folds to one); a plain
        // pattern matches exactly the lines that hold one.
        for (const line of lines) {
          if (required.unicodeFolds && /[\u212aſ]/.test(line)) continue;
          if (regex.test(line)) expect([source, flags, line, holds(line)]).toEqual([source, flags, line, true]);
          else if (required.plain) expect([source, flags, line, holds(line)]).toEqual([source, flags, line, false]);
        }
      }
    }
    expect(checked).toBeGreaterThan(800);
  });
});

describe('literalFinders', () => {
  it('find each literal where a plain search of the bytes does, from any place (random literals and texts)', () => {
    // A fixed-seed generator, so a failure can be replayed; few letters, so near misses are many.
    let seed = 30303;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const allLetters = ['a', 'b', 'A', 'B', 'q', 'x', '_', 'é', '\n', 'z'];
    let letters = allLetters;
    const text = (length: number): string => Array.from({ length }, () => letters[Math.floor(random() * letters.length)]).join('');
    /** Where `literal` first is at or after `from`: its bytes, or (caseless, ASCII) its bytes in any case. */
    const plainSearch = (bytes: Buffer, literal: string, caseless: boolean, from: number): number => {
      if (!caseless) return bytes.indexOf(Buffer.from(literal, 'utf8'), from);
      const folded = Buffer.from(bytes.toString('latin1').toLowerCase(), 'latin1');
      return folded.indexOf(Buffer.from(literal.toLowerCase(), 'latin1'), from);
    };
    let found = 0;
    for (let round = 0; round < 3000; round += 1) {
      const caseless = random() < 0.3;
      // Two letters now and then: literals that overlap themselves (`aaaaaaab`, `abababab`).
      letters = random() < 0.4 ? ['a', 'b'] : allLetters;
      // Short and long literals alike: a long one is looked for by a piece of it.
      let literal = text(1 + Math.floor(random() * 14));
      if (caseless) literal = literal.replace(/[^\x00-\x7f]/g, 'b');
      const [find] = literalFinders({ literals: [literal], caseless, unicodeFolds: false, plain: true });
      // Texts that hold the literal, a start of it, or a start of it run into the whole (`aab` + `aaab`: a near miss one place before the match), among random letters.
      const piece = (): string => {
        const cut = literal.slice(0, Math.floor(random() * (literal.length + 1)));
        const kind = random();
        return kind < 0.35 ? cut : kind < 0.6 ? cut + literal : text(Math.floor(random() * 8));
      };
      const pieces = Array.from({ length: Math.floor(random() * 6) }, piece);
      const bytes = Buffer.from(pieces.join(''), 'utf8');
      for (let from = 0; from <= bytes.length; from += 1 + Math.floor(random() * 3)) {
        const expected = plainSearch(bytes, literal, caseless, from);
        if (expected !== -1) found += 1;
        expect([literal, caseless, bytes.toString('latin1'), from, find!(bytes, from)]).toEqual([literal, caseless, bytes.toString('latin1'), from, expected]);
      }
      // Then from places in any order, back and forth, in the same bytes (a finder may remember where it looked).
      for (let call = 0; call < 6; call += 1) {
        const from = Math.floor(random() * (bytes.length + 1));
        expect([literal, caseless, bytes.toString('latin1'), from, find!(bytes, from)]).toEqual([literal, caseless, bytes.toString('latin1'), from, plainSearch(bytes, literal, caseless, from)]);
      }
    }
    expect(found).toBeGreaterThan(1000);
  });

  it('finds a caseless literal line after line in time linear in the bytes, not looking for an absent capital again on each line', () => {
    // 100,000 lines holding `polyfill`, none with a capital `Y`: looking for `Y` from each line
    // to the end of the 2.6 MB took 3.6 s; looked for once, 20 ms.
    const bytes = Buffer.from('const x = polyfill(here);\n'.repeat(100_000));
    const [find] = literalFinders({ literals: ['polyfill'], caseless: true, unicodeFolds: false, plain: true });
    const started = performance.now();
    let lines = 0;
    for (let at = find!(bytes, 0); at !== -1; at = find!(bytes, bytes.indexOf(0x0a, at) + 1)) lines += 1;
    expect(lines).toBe(100_000);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
