import { afterEach, describe, expect, it } from 'vitest';
import { ByteText } from './byte-edit.js';
import { lineBreaksOf, MAX_KERNEL_MATCHES, replaceEveryMatch, useByteKernels } from './byte-kernels.js';
import { countLineBreaks } from './line-scan.js';
import { TimeSlicer } from '../../../time-slice.js';

/** A fixed-seed generator, so a failing case can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Bytes drawn from `alphabet`, which holds line breaks, bytes of multi-byte characters and bytes that are not UTF-8 at all. */
function bytesOf(next: () => number, length: number, alphabet: readonly number[]): Buffer {
  return Buffer.from(Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]!));
}

const ALPHABETS: readonly (readonly number[])[] = [
  [0x61, 0x62, 0x0a],
  [0x61, 0x61, 0x61, 0x62],
  [0x61, 0x41, 0x20, 0x0a, 0x0d, 0xc3, 0xa9, 0xff, 0x00],
  [0x78, 0x79, 0x7a, 0x30, 0x31, 0x0a, 0x0a, 0x0a],
];

/** Every match of `needle` left to right without overlap, and the bytes with each replaced: the plain way, through latin1 strings. */
function plainReplace(body: Buffer, needle: Buffer, replacement: Buffer): { bytes: Buffer; starts: number[] } {
  const parts = body.toString('latin1').split(needle.toString('latin1'));
  const starts: number[] = [];
  let at = 0;
  for (const part of parts.slice(0, -1)) {
    at += part.length;
    starts.push(at);
    at += needle.length;
  }
  return { bytes: Buffer.from(parts.join(replacement.toString('latin1')), 'latin1'), starts };
}

function plainLineBreaks(bytes: Buffer): number[] {
  const breaks: number[] = [];
  for (let index = bytes.indexOf(0x0a); index !== -1; index = bytes.indexOf(0x0a, index + 1)) breaks.push(index);
  return breaks;
}

afterEach(() => useByteKernels(true));

describe('the byte kernels', () => {
  it('replace every match as a split and join of the bytes would, and say where each match started (random bytes, needles and replacements)', () => {
    const next = random(4242);
    let matched = 0;
    for (let round = 0; round < 1500; round += 1) {
      const alphabet = ALPHABETS[Math.floor(next() * ALPHABETS.length)]!;
      // Lengths across the scans' 16- and 32-byte turns and their tails.
      const body = bytesOf(next, Math.floor(next() * (next() < 0.8 ? 200 : 3000)), alphabet);
      const taken = Math.floor(next() * body.length);
      const needle = next() < 0.7 && body.length > 0 ? body.subarray(taken, taken + 1 + Math.floor(next() * 6)) : bytesOf(next, 1 + Math.floor(next() * 4), alphabet);
      const replacement = bytesOf(next, Math.floor(next() * (next() < 0.9 ? 8 : 40)), alphabet);
      const prefix = next() < 0.2 ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0);
      const expected = plainReplace(body, needle, replacement);
      const actual = replaceEveryMatch(body, needle, replacement, prefix);
      const label = JSON.stringify({ body: body.toString('hex'), needle: needle.toString('hex'), replacement: replacement.toString('hex') });
      expect(actual, label).toBeDefined();
      expect([...actual!.starts], label).toEqual(expected.starts);
      expect(actual!.bytes.equals(Buffer.concat([prefix, expected.bytes])), label).toBe(true);
      matched += expected.starts.length;
    }
    expect(matched).toBeGreaterThan(5_000);
  });

  it('find a match that ends at the body’s last byte, and none that would need the bytes after it', () => {
    const body = Buffer.from(`${'x'.repeat(95)}needle`);
    expect([...replaceEveryMatch(body, Buffer.from('needle'), Buffer.from('N'), Buffer.alloc(0))!.starts]).toEqual([95]);
    // The needle's first bytes end the body; its last byte would be the next one.
    expect([...replaceEveryMatch(body.subarray(0, body.length - 1), Buffer.from('needle'), Buffer.from('N'), Buffer.alloc(0))!.starts]).toEqual([]);
  });

  it('grow their memory for a large body and answer the same (1 MB, 20,000 matches, 2.3 MB out)', () => {
    const body = Buffer.from('ab\n'.repeat(20_000) + 'c'.repeat(1_000_000 - 60_000));
    const needle = Buffer.from('b');
    const replacement = Buffer.from('0123456789abcdef'.repeat(4));
    const actual = replaceEveryMatch(body, needle, replacement, Buffer.alloc(0))!;
    const expected = plainReplace(body, needle, replacement);
    expect(actual.starts.length).toBe(20_000);
    expect([...actual.starts]).toEqual(expected.starts);
    expect(actual.bytes.equals(expected.bytes)).toBe(true);
    // The memory that grew past 2 MB is let go: a small call after it, on a new instance, still answers.
    expect([...replaceEveryMatch(Buffer.from('xbx'), needle, Buffer.from('y'), Buffer.alloc(0))!.starts]).toEqual([1]);
  });

  it('keep the body and the matches between finding and writing when a long replacement grows the memory past what is kept (2.1 MB, one match)', () => {
    const body = Buffer.from('one NEEDLE two');
    const needle = Buffer.from('NEEDLE');
    const replacement = Buffer.alloc(2_100_000, 0x7a);
    const actual = replaceEveryMatch(body, needle, replacement, Buffer.alloc(0))!;
    const expected = plainReplace(body, needle, replacement);
    expect([...actual.starts]).toEqual(expected.starts);
    expect(actual.bytes.equals(expected.bytes)).toBe(true);
  });

  it('leave to the JavaScript path what is past their bounds: too many matches, too many new bytes, a needle over 256 bytes', () => {
    const many = Buffer.from('a'.repeat(MAX_KERNEL_MATCHES + 1));
    expect(replaceEveryMatch(many, Buffer.from('a'), Buffer.from('b'), Buffer.alloc(0))).toBeUndefined();
    expect(replaceEveryMatch(many.subarray(0, MAX_KERNEL_MATCHES), Buffer.from('a'), Buffer.from('b'), Buffer.alloc(0))?.starts.length).toBe(MAX_KERNEL_MATCHES);
    expect(replaceEveryMatch(Buffer.from('a'.repeat(100)), Buffer.from('a'), Buffer.alloc(50_000, 0x62), Buffer.alloc(0))).toBeUndefined();
    const long = Buffer.alloc(257, 0x61);
    expect(replaceEveryMatch(Buffer.concat([long, long]), long, Buffer.from('b'), Buffer.alloc(0))).toBeUndefined();
  });

  it('find every line break, at any place and alignment (random bytes)', () => {
    const next = random(777);
    for (let round = 0; round < 600; round += 1) {
      const body = bytesOf(next, Math.floor(next() * (next() < 0.8 ? 100 : 5000)), ALPHABETS[Math.floor(next() * ALPHABETS.length)]!);
      // A view that does not start at its buffer's start, as a file's body after a byte order mark.
      const offset = Math.floor(next() * 4);
      const view = Buffer.concat([Buffer.alloc(offset, 0x0a), body]).subarray(offset);
      expect([...lineBreaksOf(view)!], body.toString('hex')).toEqual(plainLineBreaks(body));
    }
  });

  it('answer undefined once turned off, as where WebAssembly SIMD is missing', () => {
    useByteKernels(false);
    expect(lineBreaksOf(Buffer.from('a\nb'))).toBeUndefined();
    expect(replaceEveryMatch(Buffer.from('ab'), Buffer.from('a'), Buffer.from('c'), Buffer.alloc(0))).toBeUndefined();
    useByteKernels(true);
    expect([...lineBreaksOf(Buffer.from('a\nb'))!]).toEqual([1]);
  });
});

describe('ByteText over its index of line breaks', () => {
  it('finds each next line break and counts them as the bytes do, asked from any place in any order (random texts)', async () => {
    const next = random(99);
    for (let round = 0; round < 200; round += 1) {
      const body = bytesOf(next, Math.floor(next() * 400), ALPHABETS[Math.floor(next() * ALPHABETS.length)]!);
      const indexed = new ByteText(body);
      useByteKernels(false);
      const plain = new ByteText(body);
      expect(plain.lineBreakIndex()).toBeUndefined();
      useByteKernels(true);
      expect([...indexed.lineBreakIndex()!]).toEqual(plainLineBreaks(body));
      // Forward runs (as the scanners ask), jumps back, and places past either end.
      const places = Array.from({ length: 60 }, (_, index) => (next() < 0.6 ? index * 3 : Math.floor(next() * (body.length + 10)) - 5));
      for (const from of places) {
        expect(indexed.indexOf('\n', from), `${body.toString('hex')} from ${from}`).toBe(plain.indexOf('\n', from));
        const to = from + Math.floor(next() * 50) - 10;
        expect(await countLineBreaks(indexed, from, to, new TimeSlicer()), `${from}…${to}`).toBe(await countLineBreaks(plain, from, to, new TimeSlicer()));
      }
    }
  });
});
