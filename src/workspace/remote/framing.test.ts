import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StreamMessageReader, StreamMessageWriter, type Message } from 'vscode-jsonrpc/node';
import { BatchedMessageReader, BatchedMessageWriter } from './framing.js';

/** Messages with what framing must carry exactly: multi-byte letters, a surrogate pair, escapes, a long body. */
const MESSAGES: Message[] = [
  { jsonrpc: '2.0', id: 1, method: 'tools/run', params: { input: { path: 'src/é.ts', text: 'naïve 😀 "quoted" \\ back\nslash' } } } as Message,
  { jsonrpc: '2.0', method: 'upload/piece', params: { upload: 1, text: 'x'.repeat(70_000) } } as Message,
  { jsonrpc: '2.0', id: 2, result: null } as Message,
  { jsonrpc: '2.0', id: 3, error: { code: 1001, message: 'outside the workspace', data: { path: '/etc', reason: 'outside' } } } as Message,
];

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
  it('writes bytes the library reads back as the same messages', async () => {
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
