import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeTextFile, encodeTextFile } from './text-file.js';
import { TimeSlicer } from '../../../time-slice.js';
import { contentHashInSlices } from '../guard/write-guards.js';

/** A slicer that pauses at every check, so every chunk boundary is crossed between turns. */
class EveryTurn extends TimeSlicer {
  override dueNow(): boolean {
    return true;
  }
}

describe('decodeTextFile and encodeTextFile in slices', () => {
  // 1 MiB chunks: five boundaries, where characters of 1 to 4 bytes and surrogate pairs land.
  const text = 'a€😀é中\n'.repeat(300_000) + 'end without a break';

  it('round-trips text whose characters straddle the chunk boundaries', async () => {
    const bytes = Buffer.from(text, 'utf8');
    const decoded = await decodeTextFile(bytes, new EveryTurn());
    expect(decoded).toEqual({ text, bom: false });
    const encoded = await encodeTextFile(text, false, new EveryTurn());
    expect(encoded.equals(bytes)).toBe(true);
  });

  it('keeps a byte order mark apart and puts it back', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('\uFEFFsecond mark kept\n')]);
    const decoded = await decodeTextFile(bytes);
    expect(decoded).toEqual({ text: '\uFEFFsecond mark kept\n', bom: true });
    expect((await encodeTextFile('\uFEFFsecond mark kept\n', true)).equals(bytes)).toBe(true);
    expect(await decodeTextFile(Buffer.alloc(0))).toEqual({ text: '', bom: false });
  });

  it('refuses bytes that are not UTF-8 anywhere in the file, not only at the start', async () => {
    const bytes = Buffer.concat([Buffer.from('x'.repeat(1_000_000)), Buffer.from([0xe9]), Buffer.from('tail')]);
    expect(await decodeTextFile(bytes)).toEqual({ problem: 'it holds bytes that are not valid UTF-8: another encoding such as Latin-1, or binary data' });
    // An encoded surrogate half is not valid UTF-8 either.
    expect(await decodeTextFile(Buffer.from([0x61, 0xed, 0xa0, 0x80]))).toHaveProperty('problem');
  });

  it('writes a lone surrogate as the replacement character, as Buffer.from does', async () => {
    const lone = 'x'.repeat(1024 * 1024 - 1) + '\uD800' + 'y';
    expect((await encodeTextFile(lone, false)).equals(Buffer.from(lone, 'utf8'))).toBe(true);
  });
});

describe('contentHashInSlices', () => {
  it('gives the SHA-256 of the whole buffer', async () => {
    const bytes = Buffer.from('0123456789'.repeat(300_000));
    expect(await contentHashInSlices(bytes, new EveryTurn())).toBe(createHash('sha256').update(bytes).digest('hex'));
  });
});
