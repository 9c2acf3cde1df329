import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sniffImage } from './sniff-image.js';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../../../fixtures/images/${name}`, import.meta.url)));

describe('sniffImage on the real fixture files', () => {
  it.each([
    ['photo.jpg', 'image/jpeg'],
    ['screenshot.png', 'image/png'],
    ['animation.gif', 'image/gif'],
    ['picture.webp', 'image/webp'],
  ])('accepts %s as %s', (name, mediaType) => {
    expect(sniffImage(fixture(name))).toMatchObject({ type: 'image', mediaType });
  });

  it.each([
    ['drawing.svg', 'an', 'SVG image'],
    ['scan.tiff', 'a', 'TIFF image'],
    ['bitmap.bmp', 'a', 'BMP image'],
    ['document.pdf', 'a', 'PDF document'],
    ['photo.heic', 'a', 'HEIC image'],
    ['photo.avif', 'an', 'AVIF image'],
  ])('refuses %s, naming it %s %s', (name, article, format) => {
    expect(sniffImage(fixture(name))).toEqual({ type: 'refused', article, format });
  });

  it('calls an empty file empty and a text file unknown', () => {
    expect(sniffImage(fixture('empty.png'))).toEqual({ type: 'empty' });
    expect(sniffImage(fixture('notes.txt'))).toEqual({ type: 'unknown' });
  });

  it('needs only the first bytes', () => {
    expect(sniffImage(fixture('picture.webp').subarray(0, 12))).toMatchObject({ mediaType: 'image/webp' });
    expect(sniffImage(fixture('photo.jpg').subarray(0, 3))).toMatchObject({ mediaType: 'image/jpeg' });
  });
});

describe('sniffImage on crafted bytes', () => {
  const bytes = (text: string) => Buffer.from(text, 'latin1');

  it('reads an SVG behind a BOM, comments and a doctype, but not any XML', () => {
    const svg = '\uFEFF<!-- made by hand -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg viewBox="0 0 1 1"></svg>';
    expect(sniffImage(Buffer.from(svg, 'utf8'))).toMatchObject({ format: 'SVG image' });
    expect(sniffImage(bytes('<?xml version="1.0"?><html></html>'))).toEqual({ type: 'unknown' });
  });

  it('tells big-endian TIFF, a RIFF that is not WebP, ICO and other ftyp brands apart', () => {
    expect(sniffImage(bytes('MM\0*\0\0\0\x08'))).toMatchObject({ format: 'TIFF image' });
    expect(sniffImage(bytes('RIFF\0\0\0\0WAVEfmt '))).toMatchObject({ type: 'refused', format: 'RIFF WAVE file' });
    expect(sniffImage(Buffer.from([0, 0, 1, 0, 1, 0]))).toMatchObject({ article: 'an', format: 'ICO icon' });
    expect(sniffImage(bytes('\0\0\0\x18ftypisom\0\0\0\0'))).toMatchObject({ article: 'an', format: 'MP4/QuickTime media file' });
    expect(sniffImage(bytes('\0\0\0\x18ftypmif1\0\0\0\0'))).toMatchObject({ format: 'HEIF image' });
  });

  it('does not take "BM" at the start of a short text for a bitmap', () => {
    expect(sniffImage(bytes('BM'))).toEqual({ type: 'unknown' });
  });
});
