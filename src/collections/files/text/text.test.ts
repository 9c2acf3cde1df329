import { describe, expect, it } from 'vitest';
import { capReply, countUtf8Characters, cutLine, describeNonText, formatBytes, formatSeconds } from './text.js';

describe('describeNonText', () => {
  it('names common binary formats by their first bytes', () => {
    expect(describeNonText(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]))).toBe('a PNG image');
    expect(describeNonText(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('a JPEG image');
    expect(describeNonText(Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'))).toBe('a WebP image');
    expect(describeNonText(Buffer.from('%PDF-1.7\n'))).toBe('a PDF document');
    expect(describeNonText(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1]))).toBe('an ELF executable or library');
  });

  it('tells UTF-16 and UTF-32 by their byte order marks, and binary data by a NUL in the first 8 KB', () => {
    expect(describeNonText(Buffer.from([0xff, 0xfe, 0x68, 0x00]))).toBe('UTF-16 text');
    expect(describeNonText(Buffer.from([0xfe, 0xff, 0x00, 0x68]))).toBe('UTF-16 text');
    expect(describeNonText(Buffer.from([0xff, 0xfe, 0, 0]))).toBe('UTF-32 text');
    expect(describeNonText(Buffer.from('text\0more'))).toBe('binary data');
    expect(describeNonText(Buffer.concat([Buffer.alloc(8_192, 0x61), Buffer.from([0])]))).toBeUndefined();
  });

  it('leaves UTF-8 text, with or without a byte order mark, alone', () => {
    expect(describeNonText(Buffer.from('\uFEFFhello, wörld\n'))).toBeUndefined();
    expect(describeNonText(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('cutLine', () => {
  it('keeps short lines and cuts long ones with a count of what was left out', () => {
    expect(cutLine('short', 10)).toBe('short');
    expect(cutLine('abcdefghij', 4)).toBe('abcd … [line cut: 6 more characters]');
    expect(cutLine('abcd', 4, 1_000)).toBe('abcd … [line cut: 1,000 more characters]');
  });

  it('never splits a surrogate pair', () => {
    expect(cutLine('ab😀cd', 3)).toBe('ab … [line cut: 4 more characters]');
  });
});

describe('small helpers', () => {
  it('caps a reply at a line break, saying so', () => {
    expect(capReply('short', 100)).toBe('short');
    const capped = capReply(`${'a'.repeat(60)}\n${'b'.repeat(60)}`, 100);
    expect(capped).toBe(`${'a'.repeat(60)}\n… [reply cut at the read limit]`);
    expect(capped.length).toBeLessThanOrEqual(100);
  });

  it('counts UTF-8 characters, not bytes', () => {
    expect(countUtf8Characters(Buffer.from('aé😀'))).toBe(3);
  });

  it('formats sizes and seconds for messages', () => {
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(1_000)).toBe('1,000 bytes');
    expect(formatBytes(10 * 1024 * 1024)).toBe('10.0 MB');
    expect(formatBytes(2 * 1024 ** 3)).toBe('2.0 GB');
    expect(formatSeconds(2_000)).toBe('2');
    expect(formatSeconds(500)).toBe('0.5');
  });
});
