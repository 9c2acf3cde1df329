import { isUtf8 } from 'node:buffer';
import { describeNonText, isHighSurrogate, UTF8_BOM } from './text.js';
import { TimeSlicer } from '../../../time-slice.js';

/** A UTF-8 text file taken apart for editing: its text, and whether a byte order mark came first. */
export interface DecodedTextFile {
  readonly text: string;
  readonly bom: boolean;
}

/**
 * Bytes decoded, or characters encoded, between two turns of the event loop. Decoding 10 MB of
 * two-byte text at once held the event loop 55 ms; a megabyte costs 4–6 ms. Smaller pieces
 * cost more in all: a 330 KB file decoded in two quarter-megabyte pieces and joined took
 * 2.9 ms, in one piece 1.1 ms.
 */
const CODEC_CHUNK = 1024 * 1024;

/**
 * Decodes a file's bytes as UTF-8 for editing, or says why it cannot be: a binary format,
 * UTF-16/UTF-32 text, or bytes that are not valid UTF-8. An edit never rewrites text it
 * could not decode, so a file that fails here is refused rather than damaged.
 *
 * Validates the whole file natively first (fast), then decodes it in time slices, cut at
 * character boundaries, so a 10 MB file never holds the event loop.
 */
export async function decodeTextFile(bytes: Uint8Array, slicer = new TimeSlicer()): Promise<DecodedTextFile | { readonly problem: string }> {
  const checked = checkTextFile(bytes);
  if ('problem' in checked) return checked;
  return decodeCheckedText(checked, slicer);
}

/** The text of bytes {@link checkTextFile} has accepted, decoded in time slices as {@link decodeTextFile} does. */
export async function decodeCheckedText({ bom, body }: CheckedTextFile, slicer = new TimeSlicer()): Promise<DecodedTextFile> {
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const pieces: string[] = [];
  for (let start = 0; start < buffer.length; ) {
    let end = Math.min(buffer.length, start + CODEC_CHUNK);
    // Never cut inside a character: back up over continuation bytes (10xxxxxx).
    while (end < buffer.length && (buffer[end]! & 0xc0) === 0x80) end -= 1;
    pieces.push(buffer.toString('utf8', start, end));
    start = end;
    if (slicer.dueNow()) await slicer.pause();
  }
  return { text: pieces.length === 1 ? pieces[0]! : pieces.join(''), bom };
}

/** A file's bytes accepted as UTF-8 text: whether a byte order mark came first, and the bytes after it. */
export interface CheckedTextFile {
  readonly bom: boolean;
  readonly body: Uint8Array;
}

/**
 * A file's bytes checked as {@link decodeTextFile} checks them, without decoding them: the
 * bytes after any byte order mark, or why they are not UTF-8 text.
 */
export function checkTextFile(bytes: Uint8Array): CheckedTextFile | { readonly problem: string } {
  const nonText = describeNonText(bytes);
  if (nonText !== undefined) return { problem: nonText };
  const bom = hasBom(bytes);
  const body = bom ? bytes.subarray(UTF8_BOM.length) : bytes;
  if (!isUtf8(body)) return { problem: 'it holds bytes that are not valid UTF-8: another encoding such as Latin-1, or binary data' };
  return { bom, body };
}

/**
 * The bytes to write for `text`, with a byte order mark first when `bom` is set: encoded in
 * time slices, cut between characters, into one buffer of the right size.
 */
export async function encodeTextFile(text: string, bom: boolean, slicer = new TimeSlicer()): Promise<Buffer> {
  const prefix = bom ? UTF8_BOM.length : 0;
  const bytes = Buffer.allocUnsafe(prefix + Buffer.byteLength(text, 'utf8'));
  if (bom) UTF8_BOM.copy(bytes, 0);
  let offset = prefix;
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + CODEC_CHUNK);
    // Never cut between the two halves of a surrogate pair.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    offset += bytes.write(text.slice(start, end), offset, 'utf8');
    start = end;
    if (slicer.dueNow()) await slicer.pause();
  }
  return bytes;
}

/** True when `bytes` starts with the UTF-8 byte order mark. */
export function hasBom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
}
