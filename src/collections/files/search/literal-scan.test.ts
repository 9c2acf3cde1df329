import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIRST_READ_BYTES, SearchFileReader } from './file-reader.js';
import { currentScanArena, releaseScanArena, scanArena, withoutScanArena } from './literal-scan.js';
import { literalFinders } from './prefilter.js';

const arena = scanArena();

/** Where `literal` first is in `bytes` at or after `from`, ignoring ASCII case: the plain way. */
function plainCaseless(bytes: Buffer, literal: string, from: number): number {
  const folded = Buffer.from(bytes.toString('latin1').replace(/[A-Z]/g, (letter) => letter.toLowerCase()), 'latin1');
  return folded.indexOf(Buffer.from(literal.toLowerCase(), 'latin1'), from);
}

describe('the caseless literal scan', () => {
  it('is built from literal-scan.wat as checked in', () => {
    const script = fileURLToPath(new URL('build-literal-scan.mjs', import.meta.url));
    const run = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('runs on this Node.js, with the reader’s first buffer in its memory', () => {
    // Node.js 22 on x64 and arm64 has WebAssembly SIMD: the fallback is for other machines.
    expect(arena).toBeDefined();
    expect(arena!.first.length).toBe(FIRST_READ_BYTES);
    expect(arena!.holds(arena!.first)).toBe(true);
    expect(arena!.holds(Buffer.alloc(16))).toBe(false);
  });

  it('finds what a plain caseless search finds, from any place, in bytes read into its memory (random literals and texts)', () => {
    // A fixed-seed generator, so a failure can be replayed. Characters that differ from a
    // letter only by the case bit (`@` and `` ` ``, `[` and `{`, `^` and `~`) must not match it.
    let seed = 41414;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const alphabets = [
      ['a', 'A', 'b', 'B', '@', '`', '[', '{', '^', '~', '\n', 'y', 'Y', '\u00e9'],
      ['a', 'A'],
      ['q', 'Q', 'u', 'x', '1', ' '],
    ];
    let letters = alphabets[0]!;
    const text = (length: number): string => Array.from({ length }, () => letters[Math.floor(random() * letters.length)]).join('');
    let found = 0;
    let checked = 0;
    for (let round = 0; round < 1500; round += 1) {
      letters = alphabets[Math.floor(random() * alphabets.length)]!;
      const literal = text(1 + Math.floor(random() * 20)).replace(/[^\x00-\x7f]/g, 'b');
      const [find] = literalFinders({ literals: [literal], caseless: true, unicodeFolds: false, plain: true });
      // Texts long enough to cross the scan's 32-place turns, holding the literal in mixed case and near misses.
      const piece = (): string => {
        const kind = random();
        const mixed = Array.from(literal, (character) => (random() < 0.5 ? character.toUpperCase() : character.toLowerCase())).join('');
        return kind < 0.3 ? mixed : kind < 0.55 ? mixed.slice(0, Math.floor(random() * mixed.length)) : text(Math.floor(random() * 70));
      };
      const source = Buffer.from(Array.from({ length: Math.floor(random() * 8) }, piece).join(''), 'utf8');
      // Where in the memory the bytes lie changes the scan's alignment; some end with the memory itself, where a read past them would trap.
      const room = arena!.first.length;
      const offset = random() < 0.5 ? Math.floor(random() * 40) : room - source.length - Math.floor(random() * 3);
      const bytes = arena!.first.subarray(offset, offset + source.length);
      source.copy(bytes);
      // What follows the bytes in memory is the literal: a scan that reads past their end finds it.
      const end = offset + source.length;
      arena!.first.write(literal.repeat(3).slice(0, Math.max(0, Math.min(64, room - end))), end, 'latin1');
      for (let from = 0; from <= bytes.length; from += 1 + Math.floor(random() * 5)) {
        const expected = plainCaseless(source, literal, from);
        if (expected !== -1) found += 1;
        checked += 1;
        expect([literal, source.toString('latin1'), offset, from, find!(bytes, from)]).toEqual([literal, source.toString('latin1'), offset, from, expected]);
      }
    }
    expect(found).toBeGreaterThan(2000);
    expect(checked).toBeGreaterThan(10_000);
  });

  it('keeps the needles of many literals apart, past the slots of its first page', () => {
    const literals = Array.from({ length: 300 }, (_, index) => `needle${index}x`);
    const finders = literals.map((literal) => literalFinders({ literals: [literal], caseless: true, unicodeFolds: false, plain: true })[0]!);
    const source = Buffer.from(literals.map((literal) => literal.toUpperCase()).join(' '));
    const bytes = arena!.first.subarray(0, source.length);
    source.copy(bytes);
    // Every finder twice, in two orders: a needle that lost its slot is written again.
    for (const order of [finders.keys(), [...finders.keys()].reverse()])
      for (const index of order) expect(finders[index]!(bytes, 0)).toBe(plainCaseless(source, literals[index]!, 0));
  });

  it('reads files whole into memory it grows, and is made again after a release', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'literal-scan-'));
    try {
      const large = path.join(folder, 'large.txt');
      // 3 MB: past the first read, so the memory grows for the whole file.
      fs.writeFileSync(large, `${'line of text\n'.repeat(240_000)}the POLYFILL at the end\n`);
      const reader = new SearchFileReader();
      const read = reader.read(large, 10 * 1024 * 1024);
      expect(read.type).toBe('text');
      const bytes = (read as { bytes: Buffer }).bytes;
      const grown = currentScanArena()!;
      expect(grown.grown).toBe(true);
      expect(grown.holds(bytes)).toBe(true);
      const [find] = literalFinders({ literals: ['polyfill'], caseless: true, unicodeFolds: false, plain: true });
      expect(find!(bytes, 0)).toBe(plainCaseless(bytes, 'polyfill', 0));
      // Between searches a grown arena goes; the next read makes a new one, 1 MB again.
      reader.releaseWholeBuffer();
      expect(currentScanArena()).toBeUndefined();
      const small = path.join(folder, 'small.txt');
      fs.writeFileSync(small, 'a Polyfill here\n');
      const again = reader.read(small, 1024);
      expect(again.type).toBe('text');
      const fresh = currentScanArena()!;
      expect(fresh).not.toBe(grown);
      expect(fresh.grown).toBe(false);
      expect(find!((again as { bytes: Buffer }).bytes, 0)).toBe(2);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
      releaseScanArena();
    }
  });

  // Last: it leaves this test file's thread without an arena.
  it('without WebAssembly, reads into the heap and finds with indexOf, with the same answers', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'literal-scan-heap-'));
    try {
      withoutScanArena();
      expect(scanArena()).toBeUndefined();
      const reader = new SearchFileReader();
      const [find] = literalFinders({ literals: ['polyfill'], caseless: true, unicodeFolds: false, plain: true });
      for (const [name, text] of [['small.txt', 'a PolyFill here\n'], ['large.txt', `${'line of text\n'.repeat(240_000)}the POLYFILL at the end\n`]] as const) {
        fs.writeFileSync(path.join(folder, name), text);
        const read = reader.read(path.join(folder, name), 10 * 1024 * 1024);
        expect(read.type).toBe('text');
        const bytes = (read as { bytes: Buffer }).bytes;
        expect(bytes.toString('utf8')).toBe(text);
        expect(find!(bytes, 0)).toBe(plainCaseless(bytes, 'polyfill', 0));
      }
      expect(currentScanArena()).toBeUndefined();
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
