/**
 * @module Long strings of a message carried beside its JSON instead of inside it (protocol
 * version 3): a file's page in a `tools/run` answer, a piece of an upload, a file's base64.
 *
 * Why: `JSON.stringify` escapes a string character by character, and on Node.js 22 that costs
 * about 5 ns a character, `JSON.parse` about 1.5 more. A 200-line `read_file` reply (5.5 KB)
 * cost the box 30 µs to encode and the caller 15 µs to decode, the largest single cost of a
 * remote call after the file system; a 1 MB piece of a file, 8 ms and 6 ms. The same string
 * as UTF-8 bytes costs 4 µs to encode and 2 µs to decode (`test/bench/remote.ts`).
 *
 * On the wire: the message's JSON with each such string replaced by `""`, then each string's
 * UTF-8 bytes, in order. A header names where each goes and its length:
 *
 * ```
 * Content-Length: 5712
 * Content-Attachments: [[["result","outcome","output","text"],5580]]
 *
 * {"jsonrpc":"2.0","id":7,"result":{"outcome":{"type":"output","output":{"text":"",…}}}}export const value0 = 0;…
 * ```
 *
 * `Content-Length` counts every byte of the body, attachments included, so a reader that skips
 * the header stays in step. Only strings that UTF-8 carries unchanged are attached (a lone
 * surrogate stays in the JSON, escaped), and a message with none is the library's bytes.
 */

/** Strings shorter than this stay in the JSON: below it, escaping costs less than the header. */
export const ATTACHED_STRING_CHARS = 1024;
/** At most this many strings of one message are attached; any more stay in the JSON. */
const MAX_ATTACHMENTS = 64;
/** The header's name (read caseless, as every header is). */
export const ATTACHMENTS_HEADER = 'Content-Attachments';

/** Where in the message a string goes: its keys and indexes from the top. */
export type AttachmentPath = readonly (string | number)[];

/** What a header says of the strings after a message's JSON: where each goes, and its UTF-8 bytes, in order. */
export interface AttachmentTable {
  readonly paths: readonly AttachmentPath[];
  readonly lengths: readonly number[];
}

/** A message ready for the wire: its JSON and the strings taken out of it. */
export interface SplitMessage {
  readonly json: string;
  /** Empty when no string was long enough. */
  readonly strings: readonly { readonly path: AttachmentPath; readonly text: string }[];
}

/**
 * The message's JSON with its long strings taken out. The message itself is left as it was:
 * only the objects and arrays on the way to a long string are copied.
 */
export function splitMessage(message: unknown): SplitMessage {
  const strings: { path: AttachmentPath; text: string }[] = [];
  const path: (string | number)[] = [];
  const take = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (value.length < ATTACHED_STRING_CHARS || strings.length >= MAX_ATTACHMENTS || !value.isWellFormed()) return value;
      strings.push({ path: [...path], text: value });
      return '';
    }
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let index = 0; index < value.length; index += 1) {
        path.push(index);
        const taken = take(value[index]);
        path.pop();
        if (taken !== value[index]) (copy ??= [...value])[index] = taken;
      }
      return copy ?? value;
    }
    // An object that says how it is written (a Date) is written so: nothing inside is taken.
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const field = (value as Record<string, unknown>)[key];
      path.push(key);
      const taken = take(field);
      path.pop();
      if (taken !== field) (copy ??= { ...(value as Record<string, unknown>) })[key] = taken;
    }
    return copy ?? value;
  };
  const json = JSON.stringify(take(message));
  return { json, strings };
}

/**
 * The header's value for `lengths` (each string's UTF-8 bytes, in order): JSON in ASCII, so a
 * key with other letters survives a header read as Latin-1.
 */
export function attachmentsHeader(paths: readonly AttachmentPath[], lengths: readonly number[]): string {
  const table = paths.map((path, index) => [path, lengths[index]]);
  return JSON.stringify(table).replace(/[\u007f-\uffff]/g, (letter) => `\\u${letter.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The header's value read back; throws, naming what is wrong, on anything this writer would not write. */
export function parseAttachmentsHeader(value: string): AttachmentTable {
  let table: unknown;
  try {
    table = JSON.parse(value);
  } catch {
    throw new Error(`${ATTACHMENTS_HEADER} must be JSON: ${value}`);
  }
  const wellFormed =
    Array.isArray(table) &&
    table.length > 0 &&
    table.every(
      (entry) =>
        Array.isArray(entry) &&
        entry.length === 2 &&
        Array.isArray(entry[0]) &&
        entry[0].length > 0 &&
        entry[0].every((key: unknown) => typeof key === 'string' || (Number.isSafeInteger(key) && (key as number) >= 0)) &&
        Number.isSafeInteger(entry[1]) &&
        entry[1] >= 0,
    );
  if (!wellFormed) throw new Error(`${ATTACHMENTS_HEADER} must be a list of [path, byte length] pairs: ${value}`);
  const entries = table as [AttachmentPath, number][];
  return { paths: entries.map(([path]) => path), lengths: entries.map(([, length]) => length) };
}

/**
 * Puts each string back where its path says in `message` (parsed from the JSON part). Throws
 * when a path does not lead to a field of an object or an item of an array that was there.
 */
export function joinMessage(message: unknown, paths: readonly AttachmentPath[], strings: readonly string[]): unknown {
  for (let index = 0; index < paths.length; index += 1) {
    const path = paths[index]!;
    let holder: unknown = message;
    for (let step = 0; step < path.length - 1; step += 1) holder = fieldOf(holder, path[step]!, path);
    const last = path[path.length - 1]!;
    fieldOf(holder, last, path);
    (holder as Record<string | number, unknown>)[last] = strings[index];
  }
  return message;
}

function fieldOf(holder: unknown, key: string | number, path: AttachmentPath): unknown {
  const found =
    typeof key === 'number' ? Array.isArray(holder) && key < holder.length : typeof holder === 'object' && holder !== null && !Array.isArray(holder) && Object.hasOwn(holder, key);
  if (!found) throw new Error(`${ATTACHMENTS_HEADER} names ${JSON.stringify(path)}, which the message does not have.`);
  return (holder as Record<string | number, unknown>)[key];
}
