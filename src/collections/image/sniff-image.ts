import type { VisionMediaType } from './vision.js';

/** Bytes read from the start of a file to recognise it: enough for every signature below and an SVG's prologue. */
export const SNIFF_BYTES = 1024;

/** What a file's first bytes say it is. */
export type SniffedFile =
  | { readonly type: 'image'; readonly mediaType: VisionMediaType; readonly format: string }
  | { readonly type: 'refused'; readonly format: string; readonly article: 'a' | 'an' }
  | { readonly type: 'empty' }
  | { readonly type: 'unknown' };

/**
 * Recognises a file by its content, never by its name: JPEG, PNG, GIF and WebP are images a
 * vision model accepts; SVG, TIFF, BMP, HEIC/HEIF, AVIF, PDF and a few other common formats
 * are named so a refusal can say what the file is.
 *
 * @param head The file's first bytes ({@link SNIFF_BYTES} are enough), or all of it.
 */
export function sniffImage(head: Uint8Array): SniffedFile {
  if (head.length === 0) return { type: 'empty' };
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const ascii = (start: number, end: number) => bytes.toString('latin1', start, end);

  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return image('image/jpeg', 'JPEG image');
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return image('image/png', 'PNG image');
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return image('image/gif', 'GIF image');
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return image('image/webp', 'WebP image');

  if (ascii(0, 5) === '%PDF-') return refused('PDF document');
  if (ascii(0, 4) === 'II*\0' || ascii(0, 4) === 'MM\0*' || ascii(0, 4) === 'II+\0' || ascii(0, 4) === 'MM\0+') {
    return refused('TIFF image');
  }
  if (ascii(0, 2) === 'BM' && bytes.length >= 14) return refused('BMP image');
  if (ascii(4, 8) === 'ftyp') return refused(isoMediaFormat(ascii(8, 12)));
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00])) return refused('ICO icon');
  if (startsWith(bytes, [0xff, 0x0a]) || startsWith(bytes, [0x00, 0x00, 0x00, 0x0c, 0x4a, 0x58, 0x4c, 0x20])) {
    return refused('JPEG XL image');
  }
  if (startsWith(bytes, [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20])) return refused('JPEG 2000 image');
  if (ascii(0, 4) === '8BPS') return refused('Photoshop document');
  if (ascii(0, 4) === 'RIFF') return refused(`RIFF ${ascii(8, 12).trim() || 'container'} file`);
  if (startsWith(bytes, [0x1f, 0x8b])) return refused('gzip archive');
  if (ascii(0, 4) === 'PK\x03\x04') return refused('ZIP archive');

  if (looksLikeSvg(bytes)) return refused('SVG image');
  return { type: 'unknown' };
}

function image(mediaType: VisionMediaType, format: string): SniffedFile {
  return { type: 'image', mediaType, format };
}

function refused(format: string): SniffedFile {
  // Names spoken with a vowel sound first: "an SVG image", "an AVIF image", "an MP4 file".
  const article = /^(?:[AEIOU]|SVG|MP4)/.test(format) ? 'an' : 'a';
  return { type: 'refused', format, article };
}

function startsWith(bytes: Buffer, signature: readonly number[]): boolean {
  return bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte);
}

/** ISO base media files (`ftyp` box) named by their major brand. */
function isoMediaFormat(brand: string): string {
  if (['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs'].includes(brand)) return 'HEIC image';
  if (['mif1', 'msf1'].includes(brand)) return 'HEIF image';
  if (brand === 'avif' || brand === 'avis') return 'AVIF image';
  if (brand === 'crx ') return 'Canon raw image';
  if (brand === 'qt  ') return 'QuickTime video';
  return 'MP4/QuickTime media file';
}

/** An SVG file: text (after an optional BOM, XML prologue, comments or doctype) whose root element is `svg`. */
function looksLikeSvg(bytes: Buffer): boolean {
  const text = bytes.toString('utf8', 0, Math.min(bytes.length, SNIFF_BYTES)).replace(/^\uFEFF/, '');
  return /^\s*(?:<\?xml[^>]*>\s*)?(?:(?:<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)\s*)*<svg[\s>]/i.test(text);
}
