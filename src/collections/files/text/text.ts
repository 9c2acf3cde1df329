/**
 * Small helpers for telling text from binary and for showing lines to a model. Shared by the
 * reading tools and the writing tools, so they agree on what counts as text.
 */

/** How many leading bytes are checked for a NUL byte to call a file binary (git and ripgrep do the same). */
export const BINARY_SNIFF_BYTES = 8_192;

/** The UTF-8 byte order mark. */
export const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Magic numbers of common binary formats, to say what a binary file is (also sent to the search worker). */
export const BINARY_SIGNATURES: readonly { readonly bytes: readonly number[]; readonly offset?: number; readonly kind: string }[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], kind: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], kind: 'a JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], kind: 'a GIF image' },
  { bytes: [0x57, 0x45, 0x42, 0x50], offset: 8, kind: 'a WebP image' },
  { bytes: [0x25, 0x50, 0x44, 0x46], kind: 'a PDF document' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], kind: 'a ZIP archive (or a file built on one: docx, xlsx, jar)' },
  { bytes: [0x1f, 0x8b], kind: 'a gzip archive' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], kind: 'an ELF executable or library' },
  { bytes: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65], kind: 'an SQLite database' },
  { bytes: [0x00, 0x61, 0x73, 0x6d], kind: 'a WebAssembly module' },
];

/**
 * What kind of non-text content `head` (the first bytes of a file) starts, or `undefined`
 * when it looks like UTF-8 text so far: a known binary format, UTF-16/UTF-32 text (by its
 * byte order mark), or binary data (a NUL byte in the first {@link BINARY_SNIFF_BYTES} bytes).
 */
export function describeNonText(head: Uint8Array): string | undefined {
  for (const signature of BINARY_SIGNATURES) {
    const offset = signature.offset ?? 0;
    if (head.length >= offset + signature.bytes.length && signature.bytes.every((byte, index) => head[offset + index] === byte)) {
      return signature.kind;
    }
  }
  if (head.length >= 4 && head[0] === 0xff && head[1] === 0xfe && head[2] === 0 && head[3] === 0) return 'UTF-32 text';
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) return 'UTF-16 text';
  const sniffed = head.subarray(0, BINARY_SNIFF_BYTES);
  if (sniffed.includes(0)) return 'binary data';
  return undefined;
}

/** Number of characters (code points) in UTF-8 bytes: every byte that does not continue a sequence starts one. */
export function countUtf8Characters(bytes: Uint8Array): number {
  let count = 0;
  for (let index = 0; index < bytes.length; index += 1) {
    if ((bytes[index]! & 0xc0) !== 0x80) count += 1;
  }
  return count;
}

/** `1234567` → `1,234,567`, for numbers the model reads. */
export function formatCount(value: number): string {
  return COUNT_FORMAT.format(value);
}

/** Made once: `toLocaleString` builds a new formatter on every call, at about 10 µs each. */
const COUNT_FORMAT = new Intl.NumberFormat('en-US');

/** `1 occurrence`, `3 occurrences`, `1,200 lines`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}

/** How many lines `content` holds: a last line without a line break counts, an empty text has none. */
export function countLines(content: string): number {
  if (content === '') return 0;
  // Counting breaks with indexOf allocates nothing: a 10 MB write's reply costs a few milliseconds, not a split.
  let breaks = 0;
  for (let index = content.indexOf('\n'); index !== -1; index = content.indexOf('\n', index + 1)) breaks += 1;
  return breaks + (content.endsWith('\n') ? 0 : 1);
}

/** Milliseconds as seconds for a message: `2000` → `2`, `500` → `0.5`. */
export function formatSeconds(milliseconds: number): string {
  return String(Math.round(milliseconds / 100) / 10);
}

/** A size in bytes for people and models: `812 bytes`, `14.2 KB`, `2.0 GB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${formatCount(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** The marker put after a line that was cut, saying how much was left out. */
export function cutMarker(omittedCharacters: number): string {
  return ` … [line cut: ${formatCount(omittedCharacters)} more characters]`;
}

/**
 * A line cut to at most `maxLength` characters (not counting the marker), never in the middle
 * of a surrogate pair, with a {@link cutMarker} when anything was left out. `extraCharacters`
 * counts characters already dropped before the text reached here.
 */
export function cutLine(line: string, maxLength: number, extraCharacters = 0): string {
  if (line.length <= maxLength && extraCharacters === 0) return line;
  let end = Math.min(line.length, maxLength);
  if (end > 0 && end < line.length && isHighSurrogate(line.charCodeAt(end - 1))) end -= 1;
  return line.slice(0, end) + cutMarker(line.length - end + extraCharacters);
}

/**
 * A last guard on a reply's length: the tools plan their replies to fit, but notes naming
 * very long paths could still push one over. Cuts at a line break when it can.
 */
export function capReply(text: string, maxCharacters: number): string {
  if (text.length <= maxCharacters) return text;
  const marker = '\n… [reply cut at the read limit]';
  const room = maxCharacters - marker.length;
  const lineBreak = text.lastIndexOf('\n', room);
  return text.slice(0, lineBreak > room / 2 ? lineBreak : room) + marker;
}

/** Control characters, line and paragraph separators and bidirectional overrides: a name holding one could forge lines or hide its end. */
const UNSAFE_IN_NAME = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * A file name or path as a listing shows it: as it is, or, when it holds a line break or
 * another character that could forge or hide lines (`real.txt\nfake.txt`), in double quotes
 * with those characters escaped as in JSON (`"real.txt\\nfake.txt"`).
 */
export function shownName(name: string): string {
  UNSAFE_IN_NAME.lastIndex = 0;
  if (!UNSAFE_IN_NAME.test(name)) return name;
  return JSON.stringify(name).replace(UNSAFE_IN_NAME, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** An optional folder path as given, or `.` (the workspace root) when it was left out or blank. */
export function orRoot(path: string | undefined): string {
  return path === undefined || path.trim() === '' ? '.' : path;
}


/** True for the first half of a UTF-16 surrogate pair: a string cut after it splits a character. */
export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
