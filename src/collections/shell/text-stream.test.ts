import stripAnsi from 'strip-ansi';
import { describe, expect, it } from 'vitest';
import { mixedOutput, seededRandom } from './test-support/mixed-output.js';
import { CleanTextStream, HeadTailWindow, LineCapper, LineFilter } from './text-stream.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('CleanTextStream', () => {
  it('keeps multi-byte characters split at every byte', () => {
    const all = bytes('é😀日本\n');
    const stream = new CleanTextStream();
    let text = '';
    for (const byte of all) text += stream.write(Uint8Array.of(byte));
    text += stream.end();
    expect(text).toBe('é😀日本\n');
  });

  it('removes escape sequences split anywhere, and turns CRLF into LF across chunks', () => {
    const raw = '\u001b[1;32mgreen\u001b[0m \u001b]8;;https://example.test\u0007link\u001b]8;;\u0007\r\nnext\r\n';
    for (let split = 1; split < raw.length; split += 1) {
      const stream = new CleanTextStream();
      const text = stream.write(bytes(raw.slice(0, split))) + stream.write(bytes(raw.slice(split))) + stream.end();
      expect(text, `split at ${split}`).toBe('green link\nnext\n');
    }
  });

  it('lets a lone escape character through at the end', () => {
    const stream = new CleanTextStream();
    expect(stream.write(bytes('a\u001b')) + stream.end()).toBe('a\u001b');
  });
});

describe('LineCapper', () => {
  it('cuts long lines across chunks with a marker', () => {
    const capper = new LineCapper(5);
    const text = capper.write('abc') + capper.write('defgh\nok\n12345') + capper.write('67') + capper.end();
    expect(text).toBe('abcde … [3 more characters on this line]\nok\n12345 … [2 more characters on this line]');
    expect(capper.cutLines).toBe(2);
    expect(capper.cutCharacters).toBe(5);
  });
});

describe('LineFilter', () => {
  it('keeps matching lines whole across chunks and counts', () => {
    const filter = new LineFilter(/err/g);
    const text = filter.write('ok 1\ner') + filter.write('ror 2\nok 3\nerr 4') + filter.end();
    expect(text).toBe('error 2\nerr 4');
    expect([filter.keptLines, filter.totalLines]).toEqual([2, 4]);
  });
});

describe('HeadTailWindow', () => {
  it('keeps the head and the newest tail and counts what fell between', () => {
    const window = new HeadTailWindow(4, 6);
    for (const piece of ['ab', 'cd\nef', '\ngh', 'ij\nkl', 'mnopq']) window.write(piece);
    expect(window.head).toBe('abcd');
    expect(window.tail).toBe('lmnopq');
    expect(window.totalCharacters).toBe(20);
    expect(window.omittedCharacters).toBe(10);
    expect(window.omittedLines).toBe(3);
  });

  it('handles a single write larger than the tail', () => {
    const window = new HeadTailWindow(2, 3);
    window.write('0123456789');
    expect([window.head, window.tail, window.omittedCharacters]).toEqual(['01', '789', 5]);
  });
});

describe('LineCapper at chunk edges', () => {
  it('closes a cut line when the next chunk starts with its line break', () => {
    const capper = new LineCapper(3);
    expect(capper.write('abcdef') + capper.write('\nxy\n') + capper.end()).toBe('abc … [3 more characters on this line]\nxy\n');
  });
});

describe('LineCapper against a plain reference', () => {
  it('gives the same text for random lines and random chunking', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const cap = (line: string, max: number) => (line.length <= max ? line : `${line.slice(0, max)} … [${(line.length - max).toLocaleString('en-US')} more characters on this line]`);
    for (let round = 0; round < 200; round += 1) {
      const max = 1 + random(12);
      const lines = Array.from({ length: random(8) }, () => 'x'.repeat(random(30)));
      const text = lines.join('\n') + (random(2) === 0 ? '\n' : '');
      const capper = new LineCapper(max);
      let output = '';
      for (let index = 0; index < text.length; ) {
        const size = 1 + random(15);
        output += capper.write(text.slice(index, index + size));
        index += size;
      }
      output += capper.end();
      expect(output, JSON.stringify({ max, text })).toBe(text.split('\n').map((line) => cap(line, max)).join('\n'));
    }
  });
});

describe('CleanTextStream on a deterministic mixed stream', () => {
  // The whole text cleaned at once is what any chunking must give: plain ASCII chunks take a
  // fast path (no decoding, no escape scan), and the rest goes through the decoder, which may
  // be holding half a character or an escape from the chunk before.
  it('gives the text of the whole, cleaned at once, for every chunking (40 seeds)', () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      const { whole, chunks } = mixedOutput(seed, 300_000);
      const stream = new CleanTextStream();
      let text = '';
      for (const chunk of chunks) text += stream.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      text += stream.end();
      const expected = stripAnsi(new TextDecoder().decode(whole)).replaceAll('\r\n', '\n');
      if (text !== expected) expect.fail(`seed ${seed}: the streamed text differs from the whole text cleaned at once`);
    }
  });

  it('drops a byte order mark at the start only, also after plain chunks', () => {
    const stream = new CleanTextStream();
    expect(stream.write(bytes('plain\n')) + stream.write(bytes('\ufeffé\n')) + stream.end()).toBe('plain\n\ufeffé\n');
    const fresh = new CleanTextStream();
    expect(fresh.write(bytes('\ufeffé\n')) + fresh.write(bytes('plain\n')) + fresh.end()).toBe('é\nplain\n');
  });

  it('keeps a character whose bytes end one chunk and start a plain-looking next one', () => {
    const stream = new CleanTextStream();
    const euro = bytes('€');
    expect(stream.write(euro.subarray(0, 2)) + stream.write(Uint8Array.of(...euro.subarray(2), 0x41)) + stream.end()).toBe('€A');
    // The next chunk is pure ASCII, but the decoder holds the first two bytes of a character.
    const held = new CleanTextStream();
    expect(held.write(euro.subarray(0, 2)) + held.write(bytes('AB')) + held.end()).toBe('\ufffdAB');
  });
});

describe('plain bytes through LineCapper and HeadTailWindow', () => {
  it('give what their text gives, for random lines, limits and chunkings', () => {
    const random = seededRandom(11);
    const pick = (n: number) => Math.floor(random() * n);
    for (let round = 0; round < 300; round += 1) {
      const max = 1 + pick(12);
      const text = Array.from({ length: pick(10) }, () => 'x'.repeat(pick(30))).join('\n') + (pick(2) === 0 ? '\n' : '');
      const asText = new LineCapper(max);
      const asBytes = new LineCapper(max);
      const windows = [new HeadTailWindow(7, 9), new HeadTailWindow(7, 9)] as const;
      let expected = '';
      let actual = '';
      for (let index = 0; index < text.length; ) {
        const piece = text.slice(index, index + 1 + pick(15));
        index += piece.length;
        const cut = asText.write(piece);
        expected += cut;
        windows[0].write(cut);
        const bytes = Buffer.from(piece, 'latin1');
        if (asBytes.acceptsUncut(bytes)) {
          actual += piece;
          windows[1].write(bytes);
        } else {
          const written = asBytes.write(piece);
          actual += written;
          windows[1].write(written);
        }
      }
      expected += asText.end();
      actual += asBytes.end();
      expect(actual, JSON.stringify({ max, text })).toBe(expected);
      expect([windows[1].head, windows[1].tail, windows[1].omittedCharacters, windows[1].omittedLines, windows[1].totalCharacters]).toEqual([
        windows[0].head,
        windows[0].tail,
        windows[0].omittedCharacters,
        windows[0].omittedLines,
        windows[0].totalCharacters,
      ]);
    }
  });
});
