import { describe, expect, it } from 'vitest';
import { ToolError } from '../../../errors/tool-error.js';
import { applyChunks } from './apply-chunks.js';
import type { ChunkLine, PatchChunk } from './parse.js';

const chunk = (lines: string, extra: Partial<PatchChunk> = {}): PatchChunk => ({
  anchors: [],
  endOfFile: false,
  patchLine: 1,
  lines: lines.split('\n').map((line): ChunkLine => ({ kind: line[0] as ChunkLine['kind'], text: line.slice(1) })),
  ...extra,
});
const apply = async (text: string, ...chunks: PatchChunk[]) => (await applyChunks(text, chunks, 'f.txt', 2_000)).text;

describe('applyChunks', () => {
  it('replaces, inserts and removes lines, keeping each untouched line\'s ending', async () => {
    expect(await apply('a\r\nb\nc\r\n', chunk(' a\n-b\n+B'))).toBe('a\r\nB\r\nc\r\n');
    expect(await apply('a\nb\nc\n', chunk(' a\n+x'), chunk('-c'))).toBe('a\nx\nb\n');
    expect((await applyChunks('a\nb\nc\n', [chunk(' a\n+x'), chunk('-c')], 'f.txt', 2_000)).changed).toEqual([{ first: 1, last: 2, lines: ['a', 'x'] }, { first: 3, last: 3, lines: [] }]);
  });

  it('keeps a file without a final line break that way, at its end', async () => {
    expect(await apply('a\nb', chunk(' a\n-b\n+B'))).toBe('a\nB');
    expect(await apply('a\nb', chunk('-b'))).toBe('a');
    expect(await apply('a\nb', chunk('+c', { anchors: [], endOfFile: true }))).toBe('a\nb\nc');
    expect(await apply('', chunk('+first'))).toBe('first\n');
  });

  it('finds a chunk after its @@ anchors, indentation of the anchor ignored, and inserts after the anchor when it only adds', async () => {
    const text = 'class A {\n  run() {\n    return 1;\n  }\n}\nclass B {\n  run() {\n    return 1;\n  }\n}\n';
    expect(await apply(text, chunk('-    return 1;\n+    return 2;', { anchors: ['class B {', 'run() {'] }))).toBe(text.replace(/return 1;(?![\s\S]*return 1;)/, 'return 2;'));
    expect(await apply('x\ny\n', chunk('+inserted', { anchors: ['x'] }))).toBe('x\ninserted\ny\n');
  });

  it('matches whole lines only, and says how often an ambiguous chunk occurs', async () => {
    await expect(apply('ab\nb\n', chunk('-a'))).rejects.toThrow(ToolError);
    await expect(apply('x\nx\n', chunk('-x\n+y'))).rejects.toThrow('occur 2 times (lines 1, 2)');
    expect(await apply('x\nx\n', chunk('-x\n+y', { anchors: ['x'] }))).toBe('x\ny\n');
  });

  it('fits 100 chunks into a 12 MB file without splitting it into line strings', async () => {
    const lines = Array.from({ length: 200_000 }, (_, index) => `line number ${index} with some text to make it about sixty bytes`);
    const text = `${lines.join('\n')}\n`;
    const chunks = Array.from({ length: 100 }, (_, index) => chunk(` ${lines[1_000 + index * 1_900]}\n-${lines[1_001 + index * 1_900]}\n+changed ${index}`));
    const started = performance.now();
    const result = await applyChunks(text, chunks, 'big.txt', 2_000);
    const elapsed = performance.now() - started;
    expect(result.changed).toHaveLength(100);
    expect(result.text.split('\n')[1_001]).toBe('changed 0');
    // Generous for a loaded CI machine: about 150 ms here, where a scan of the rest of the file per chunk took 1.2 s.
    expect(elapsed).toBeLessThan(800);
  });
});
