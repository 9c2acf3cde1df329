import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StreamMessageReader, StreamMessageWriter, type Message } from 'vscode-jsonrpc/node';
import { seededRandom } from '../../collections/shell/test-support/mixed-output.js';
import { ATTACHED_STRING_CHARS } from './attachments.js';
import { BatchedMessageReader, BatchedMessageWriter } from './framing.js';

/**
 * Messages with what framing must carry exactly: multi-byte letters, a surrogate pair, escapes,
 * a long body of many small strings. None has a string long enough to travel attached, so the
 * writer's bytes are the library's.
 */
const MESSAGES: Message[] = [
  { jsonrpc: '2.0', id: 1, method: 'tools/run', params: { input: { path: 'src/é.ts', text: 'naïve 😀 "quoted" \\ back\nslash' } } } as Message,
  { jsonrpc: '2.0', method: 'upload/piece', params: { upload: 1, lines: Array.from({ length: 7_000 }, (_, index) => `line ${index}`) } } as Message,
  { jsonrpc: '2.0', id: 2, result: null } as Message,
  { jsonrpc: '2.0', id: 3, error: { code: 1001, message: 'outside the workspace', data: { path: '/etc', reason: 'outside' } } } as Message,
];

/** Messages whose long strings travel after the JSON: a page of a file, an upload's piece, several in arrays, keys in other letters. */
const ATTACHING: Message[] = [
  { jsonrpc: '2.0', id: 4, result: { outcome: { type: 'output', output: { text: 'export const naïve = "😀";\n'.repeat(300), data: { path: 'é.ts' } } } } } as Message,
  { jsonrpc: '2.0', method: 'upload/piece', params: { upload: 1, text: 'x'.repeat(70_000) } } as Message,
  { jsonrpc: '2.0', id: 5, result: [{ 'clé\r\n"': 'a'.repeat(2_000) }, 'b'.repeat(ATTACHED_STRING_CHARS), 'short', ['c'.repeat(5_000)]] } as Message,
];

/** Messages the writer and the reader hand on unchanged, in both kinds. */
const EVERY_KIND = [...MESSAGES.slice(0, 1), ...ATTACHING.slice(0, 1), ...MESSAGES.slice(2), ...ATTACHING.slice(1)];

/** The bytes {@link BatchedMessageWriter} makes of `messages`, in one turn. */
async function writerBytes(messages: readonly Message[]): Promise<Buffer> {
  const { stream, writes } = recordingStream();
  const writer = new BatchedMessageWriter(stream);
  await Promise.all(messages.map((message) => writer.write(message)));
  return Buffer.concat(writes);
}

/** What a reader hands on from `bytes` written in the pieces `cuts` make. */
async function readBack(bytes: Buffer, cuts: readonly number[] = []): Promise<{ messages: Message[]; errors: Error[] }> {
  const stream = new PassThrough();
  const messages: Message[] = [];
  const errors: Error[] = [];
  const reader = new BatchedMessageReader(stream);
  reader.onError((error) => errors.push(error));
  reader.listen((message) => messages.push(message));
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    stream.write(bytes.subarray(from, cut));
    from = cut;
  }
  await new Promise((resolve) => setTimeout(resolve, 5));
  return { messages, errors };
}

/** The bytes vscode-jsonrpc's own writer makes of `messages`. */
async function libraryBytes(messages: readonly Message[]): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const writer = new StreamMessageWriter(stream);
  for (const message of messages) await writer.write(message);
  return Buffer.concat(chunks);
}

/** A stream that records each write it is handed (a `writev` of many chunks is one). */
function recordingStream(): { stream: Writable; writes: Buffer[] } {
  const writes: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      writes.push(chunk);
      callback();
    },
    writev(chunks, callback) {
      writes.push(Buffer.concat(chunks.map(({ chunk }) => chunk as Buffer)));
      callback();
    },
  });
  return { stream, writes };
}

describe('BatchedMessageReader', () => {
  it('reads what the library writes, however the bytes are cut', async () => {
    const bytes = await libraryBytes(MESSAGES);
    // Cut once at every position of the headers and the first body, and at a few in the long one.
    const cuts = [...Array.from({ length: 200 }, (_, index) => index + 1), 70_010, bytes.length - 3];
    for (const cut of cuts) {
      const stream = new PassThrough();
      const got: Message[] = [];
      new BatchedMessageReader(stream).listen((message) => got.push(message));
      stream.write(bytes.subarray(0, cut));
      stream.write(bytes.subarray(cut));
      await new Promise((resolve) => setImmediate(resolve));
      expect(got, `cut at ${cut}`).toEqual(MESSAGES);
    }
  });

  it('hands on every message of one read in that read, in order', async () => {
    const bytes = await libraryBytes(Array.from({ length: 20 }, (_, index) => ({ jsonrpc: '2.0', id: index, method: 'tools/run', params: {} }) as Message));
    const stream = new PassThrough();
    const got: number[] = [];
    new BatchedMessageReader(stream).listen((message) => got.push((message as unknown as { id: number }).id));
    let inTheSameRead = -1;
    stream.once('data', () => queueMicrotask(() => (inTheSameRead = got.length)));
    stream.write(bytes);
    await new Promise((resolve) => setImmediate(resolve));
    expect(inTheSameRead).toBe(20);
    expect(got).toEqual(Array.from({ length: 20 }, (_, index) => index));
  });

  it('puts attached strings back where they were, however the bytes are cut', async () => {
    const bytes = await writerBytes(EVERY_KIND);
    const attached = bytes.toString('latin1').split('Content-Attachments: ').length - 1;
    expect(attached, 'messages sent with attachments').toBe(ATTACHING.length);
    const random = seededRandom(30);
    for (let round = 0; round < 60; round += 1) {
      const cuts = Array.from({ length: 1 + Math.floor(random() * 6) }, () => Math.floor(random() * bytes.length)).sort((a, b) => a - b);
      const { messages, errors } = await readBack(bytes, cuts);
      expect(errors, `cuts ${cuts.join(',')}`).toEqual([]);
      expect(messages, `cuts ${cuts.join(',')}`).toEqual(EVERY_KIND);
    }
  });

  it('carries any message the same as JSON would, long strings or not (random messages)', async () => {
    const random = seededRandom(3030);
    const letters = ['a', 'é', '日本', '😀', '\n', '"', '\\', '\u0000', '\u2028', '\ud800', '\udfff', '\r\n'];
    const text = (): string => {
      const length = random() < 0.4 ? ATTACHED_STRING_CHARS - 2 + Math.floor(random() * 3_000) : Math.floor(random() * 20);
      let result = '';
      while (result.length < length) result += random() < 0.8 ? 'x'.repeat(1 + Math.floor(random() * 200)) : letters[Math.floor(random() * letters.length)];
      return result;
    };
    const value = (depth: number): unknown => {
      const pick = random();
      if (depth > 3 || pick < 0.35) return text();
      if (pick < 0.45) return [null, true, 1.5, -3, 0][Math.floor(random() * 5)];
      if (pick < 0.7) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, () => [text().slice(0, 12), value(depth + 1)]));
    };
    const messages = Array.from({ length: 200 }, (_, id) => ({ jsonrpc: '2.0', id, result: value(0) }) as Message);
    const expected = messages.map((message) => JSON.parse(JSON.stringify(message)) as Message);
    const bytes = await writerBytes(messages);
    expect(bytes.toString('latin1').split('Content-Attachments: ').length - 1, 'messages sent with attachments').toBeGreaterThan(20);
    const { messages: got, errors } = await readBack(bytes, [17, 4_000, 90_000]);
    expect(errors).toEqual([]);
    expect(got).toEqual(expected);
    // What was sent is left as it was.
    expect(messages).toEqual(expected);
  });

  it('refuses an attachments header that does not fit its message, naming what is wrong', async () => {
    const frame = (attachments: string, body: string) => Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\nContent-Attachments: ${attachments}\r\n\r\n${body}`);
    const cases: [string, string, string][] = [
      ['not json', '{}', 'Content-Attachments must be JSON: not json'],
      ['[[[], 1]]', '{}x', 'Content-Attachments must be a list of [path, byte length] pairs: [[[], 1]]'],
      ['[[["result"], 99]]', '{"result":""}abc', 'Content-Attachments counts more bytes than the Content-Length of 16.'],
      ['[[["result", "text"], 3]]', '{"result":""}abc', 'Content-Attachments names ["result","text"], which the message does not have.'],
      ['[[["params", 2], 3]]', '{"params":[1]}abc', 'Content-Attachments names ["params",2], which the message does not have.'],
    ];
    for (const [attachments, body, message] of cases) {
      const { messages, errors } = await readBack(frame(attachments, body));
      expect(messages).toEqual([]);
      expect(errors.map((error) => error.message)).toEqual([message]);
    }
  });

  it('decodes a body over 256 KB in a turn of its own, and what came after it still after it', async () => {
    const large = { jsonrpc: '2.0', id: 7, result: 'b'.repeat(300_000) } as Message;
    const small = (id: number) => ({ jsonrpc: '2.0', id, result: id }) as Message;
    const bytes = await libraryBytes([small(1), large, small(2), small(3)]);
    const stream = new PassThrough();
    const got: unknown[] = [];
    new BatchedMessageReader(stream).listen((message) => got.push((message as unknown as { id: number }).id));
    let inTheSameRead: unknown[] = [];
    stream.once('data', () => queueMicrotask(() => (inTheSameRead = [...got])));
    stream.write(bytes);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(inTheSameRead).toEqual([1]);
    expect(got).toEqual([1, 7, 2, 3]);
  });

  it('fails a header without a length, naming it', async () => {
    const stream = new PassThrough();
    const reader = new BatchedMessageReader(stream);
    const errors: Error[] = [];
    reader.onError((error) => errors.push(error));
    reader.listen(() => undefined);
    stream.write('Content-Type: application/json\r\n\r\n{}');
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors.map((error) => error.message)).toEqual(['Header must provide a Content-Length property.\nContent-Type: application/json']);
  });
});

describe('BatchedMessageWriter', () => {
  it('writes a message with no long string as the library does, and the library reads it back', async () => {
    const stream = new PassThrough();
    const got: Message[] = [];
    new StreamMessageReader(stream).listen((message) => got.push(message));
    const writer = new BatchedMessageWriter(stream);
    await Promise.all(MESSAGES.map((message) => writer.write(message)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(got).toEqual(MESSAGES);
  });

  it('sends every message of one turn in one write, byte for byte what the library sends one by one', async () => {
    const { stream, writes } = recordingStream();
    const writer = new BatchedMessageWriter(stream);
    await Promise.all(MESSAGES.map((message) => writer.write(message)));
    expect(writes).toHaveLength(1);
    expect(writes[0]!.equals(await libraryBytes(MESSAGES))).toBe(true);
    // A later turn is a write of its own.
    await writer.write(MESSAGES[2]!);
    expect(writes).toHaveLength(2);
  });

  it('sends a long string after the JSON as its UTF-8 bytes, the header saying where it goes', async () => {
    const text = 'export const naïve = "😀";\n'.repeat(300);
    const bytes = (await writerBytes([{ jsonrpc: '2.0', id: 4, result: { output: { text } } } as Message])).toString('utf8');
    const json = '{"jsonrpc":"2.0","id":4,"result":{"output":{"text":""}}}';
    const length = Buffer.byteLength(json) + Buffer.byteLength(text);
    expect(bytes).toBe(`Content-Length: ${length}\r\nContent-Attachments: [[["result","output","text"],${Buffer.byteLength(text)}]]\r\n\r\n${json}${text}`);
  });

  it('keeps in the JSON a long string UTF-8 cannot carry (a lone surrogate) and one whose path would not fit a header', async () => {
    const lone = `${'a'.repeat(2_000)}\ud800`;
    const longKey = 'k'.repeat(5_000);
    const messages = [{ jsonrpc: '2.0', id: 1, result: lone } as Message, { jsonrpc: '2.0', id: 2, result: { [longKey]: 'v'.repeat(2_000) } } as Message];
    const bytes = await writerBytes(messages);
    expect(bytes.toString('latin1')).not.toContain('Content-Attachments');
    expect(bytes.equals(await libraryBytes(messages))).toBe(true);
    expect((await readBack(bytes)).messages).toEqual(messages);
  });

  it('rejects a message once the stream has ended, and says so', async () => {
    const { stream } = recordingStream();
    const writer = new BatchedMessageWriter(stream);
    const errors: Error[] = [];
    writer.onError(([error]) => errors.push(error));
    stream.end();
    await expect(writer.write(MESSAGES[2]!)).rejects.toThrow('The stream to the other end has closed.');
    expect(errors).toHaveLength(1);
  });
});
