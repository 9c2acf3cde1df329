import { describeNonText, UTF8_BOM } from './text.js';

/** A UTF-8 text file taken apart for editing: its text, and whether a byte order mark came first. */
export interface DecodedTextFile {
  readonly text: string;
  readonly bom: boolean;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes a file's bytes as UTF-8 for editing, or says why it cannot be: a binary format,
 * UTF-16/UTF-32 text, or bytes that are not valid UTF-8. An edit never rewrites text it
 * could not decode, so a file that fails here is refused rather than damaged.
 */
export function decodeTextFile(bytes: Uint8Array): DecodedTextFile | { readonly problem: string } {
  const nonText = describeNonText(bytes);
  if (nonText !== undefined) return { problem: nonText };
  const bom = hasBom(bytes);
  try {
    return { text: strictUtf8.decode(bom ? bytes.subarray(UTF8_BOM.length) : bytes), bom };
  } catch {
    return { problem: 'it holds bytes that are not valid UTF-8: another encoding such as Latin-1, or binary data' };
  }
}

/** The bytes to write for `text`, with a byte order mark first when `bom` is set. */
export function encodeTextFile(text: string, bom: boolean): Buffer {
  const body = Buffer.from(text, 'utf8');
  return bom ? Buffer.concat([UTF8_BOM, body]) : body;
}

/** True when `bytes` starts with the UTF-8 byte order mark. */
export function hasBom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
}
