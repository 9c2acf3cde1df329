/**
 * @module The protocol's framing on a byte stream, both ends: `Content-Length` headers and
 * UTF-8 JSON bodies, the bytes `vscode-jsonrpc`'s stream reader and writer use, written and
 * read in batches; a message's long strings travel as UTF-8 after its JSON (`attachments.ts`).
 *
 * Why not the library's own stream reader and writer: each hands one message per event-loop
 * turn (a semaphore that waits on `setImmediate`) and the writer makes two writes a message,
 * the header then the body, waiting for the first. With 20 calls in flight that is 40 writes
 * a side, each waking the other process, and a message that waits behind 19 others for as many
 * turns. Here every message written in one turn leaves in one write at its end (the stream
 * corked, a `writev`), and every message a read brings is handed on at once, in order (one
 * over 256 KB in a turn of its own, so a large message never shares a turn with its work).
 * The connection itself (ids, cancellation, dispatch) stays `vscode-jsonrpc`'s, except that a
 * reader may hand notifications to a handler of its own (the caller's does, `connection.ts`).
 */
import type { Readable, Writable } from 'node:stream';
import { ATTACHMENTS_HEADER, attachmentsHeader, joinMessage, parseAttachmentsHeader, splitMessage, type AttachmentTable } from './attachments.js';
import { AbstractMessageReader, AbstractMessageWriter, Disposable, Message, type DataCallback, type MessageReader, type MessageWriter, type NotificationMessage } from 'vscode-jsonrpc/node';

const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');
/** A header longer than this is not the protocol (ours are about 25 bytes). */
const MAX_HEADER_BYTES = 8 * 1024;
/** The longest table of attached strings a header carries, well inside {@link MAX_HEADER_BYTES}. */
const MAX_TABLE_BYTES = 4 * 1024;
/**
 * A body longer than this is decoded in an event-loop turn of its own (a 1 MB piece of a file
 * is about 1.4 MB of JSON), so that its decoding and the work its answer starts (decoding the
 * piece's base64) are two turns, as they were with the library's reader.
 */
const LARGE_BODY_BYTES = 256 * 1024;

/**
 * Reads framed messages from `readable` and hands each to the connection as soon as its last
 * byte has arrived: all of a read's messages in that read's turn, in the order they came.
 */
export class BatchedMessageReader extends AbstractMessageReader implements MessageReader {
  readonly #readable: Readable;
  /** Bytes not yet made into messages: a header not yet whole, or the part of a body read so far. */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** The body length of the message being read, or -1 while its header is. */
  #bodyBytes = -1;
  /** The strings carried after the JSON of the message being read, if its header names any. */
  #attached: AttachmentTable | undefined;
  /** Whole bodies waiting behind a large one that is decoded in a turn of its own, in order. */
  #waiting: Body[] | undefined;
  readonly #notifications: ((message: NotificationMessage) => void) | undefined;

  /**
   * With `notifications`, every notification goes to it instead of to the connection, in the
   * order the messages came (the connection takes one message a turn from its queue, see
   * `connection.ts`). It must not throw: what it throws is taken for bytes that are not the protocol.
   */
  constructor(readable: Readable, options: { readonly notifications?: (message: NotificationMessage) => void } = {}) {
    super();
    this.#readable = readable;
    this.#notifications = options.notifications;
  }

  listen(callback: DataCallback): Disposable {
    const onData = (chunk: Buffer) => this.#take(chunk, callback);
    const onError = (error: Error) => this.fireError(error);
    const onClose = () => this.fireClose();
    this.#readable.on('data', onData);
    this.#readable.on('error', onError);
    this.#readable.on('close', onClose);
    return Disposable.create(() => {
      this.#readable.off('data', onData);
      this.#readable.off('error', onError);
      this.#readable.off('close', onClose);
    });
  }

  #take(chunk: Buffer, callback: DataCallback): void {
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    try {
      for (;;) {
        if (this.#bodyBytes === -1 && !this.#readHeader()) return;
        if (this.#pendingBytes < this.#bodyBytes) return;
        const all = this.#joined();
        const body: Body = { bytes: all.subarray(0, this.#bodyBytes), attached: this.#attached };
        this.#keep(all.subarray(this.#bodyBytes));
        this.#bodyBytes = -1;
        this.#attached = undefined;
        this.#deliver(body, callback);
      }
    } catch (error) {
      // A message that does not parse leaves the stream out of step: nothing after it is read.
      this.#pending = [];
      this.#pendingBytes = 0;
      this.#bodyBytes = -1;
      this.#attached = undefined;
      this.fireError(error);
    }
  }

  /** Hands the body's message on now, or after the large one before it, or (a large one) in a turn of its own. */
  #deliver(body: Body, callback: DataCallback): void {
    if (this.#waiting !== undefined) {
      this.#waiting.push(body);
      return;
    }
    if (body.bytes.length <= LARGE_BODY_BYTES) {
      this.#hand(decodeBody(body), callback);
      return;
    }
    this.#waiting = [body];
    setImmediate(() => {
      const waiting = this.#waiting!;
      this.#waiting = undefined;
      try {
        this.#hand(decodeBody(waiting[0]!), callback);
        for (const next of waiting.slice(1)) this.#deliver(next, callback);
      } catch (error) {
        this.fireError(error);
      }
    });
  }

  /** Hands `message` to the notifications' handler when it is one and there is one, else to the connection. */
  #hand(message: Message, callback: DataCallback): void {
    if (this.#notifications !== undefined && Message.isNotification(message)) this.#notifications(message);
    else callback(message);
  }

  /** Reads a whole header from the pending bytes if they hold one; false while it is incomplete. */
  #readHeader(): boolean {
    const all = this.#joined();
    const end = all.indexOf(HEADER_END);
    if (end === -1) {
      if (all.length > MAX_HEADER_BYTES) throw new Error(`Header longer than ${MAX_HEADER_BYTES} bytes without an end.`);
      return false;
    }
    let length: number | undefined;
    let attached: AttachmentTable | undefined;
    for (const line of all.toString('latin1', 0, end).split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon === -1) throw new Error(`Message header must separate key and value using ':'\n${line}`);
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') length = Number.parseInt(value, 10);
      else if (name === ATTACHMENTS_HEADER.toLowerCase()) attached = parseAttachmentsHeader(value);
      else if (name === 'content-type' && !/charset=utf-?8/i.test(value) && /charset=/i.test(value)) throw new Error(`Unsupported charset in ${value}.`);
    }
    if (length === undefined) throw new Error(`Header must provide a Content-Length property.\n${all.toString('latin1', 0, end)}`);
    if (!Number.isSafeInteger(length) || length < 0) throw new Error(`Content-Length value must be a number. Got ${String(length)}`);
    if (attached !== undefined && attached.lengths.reduce((sum, bytes) => sum + bytes, 0) > length) {
      throw new Error(`${ATTACHMENTS_HEADER} counts more bytes than the Content-Length of ${length}.`);
    }
    this.#keep(all.subarray(end + HEADER_END.length));
    this.#bodyBytes = length;
    this.#attached = attached;
    return true;
  }

  /** The pending bytes as one buffer (a copy only when a message came in more than one read). */
  #joined(): Buffer {
    if (this.#pending.length !== 1) this.#pending = [Buffer.concat(this.#pending, this.#pendingBytes)];
    return this.#pending[0]!;
  }

  #keep(rest: Buffer): void {
    this.#pending = rest.length === 0 ? [] : [rest];
    this.#pendingBytes = rest.length;
  }
}

/** A message's whole body, and the strings its header says follow the JSON. */
interface Body {
  readonly bytes: Buffer;
  readonly attached: AttachmentTable | undefined;
}

/** The message a body holds, its strings put back. */
function decodeBody({ bytes, attached }: Body): Message {
  if (attached === undefined) return JSON.parse(bytes.toString('utf8')) as Message;
  let end = bytes.length;
  const strings: string[] = new Array(attached.lengths.length);
  for (let index = attached.lengths.length - 1; index >= 0; index -= 1) {
    const start = end - attached.lengths[index]!;
    strings[index] = bytes.toString('utf8', start, end);
    end = start;
  }
  return joinMessage(JSON.parse(bytes.toString('utf8', 0, end)), attached.paths, strings) as Message;
}

/** One message waiting for the end of the turn. */
interface Queued {
  readonly header: string;
  /**
   * Encoded when the message is written, so that a turn's write only hands buffers to the
   * system: the JSON, then each attached string.
   */
  readonly body: readonly Buffer[];
  readonly message: Message;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * Writes framed messages to `writable`: every message written in one event-loop turn goes in
 * one write (header and body of each, in order, corked into a `writev`) once the turn's other
 * work is done, so a burst of answers costs one system call and wakes the reader once. A
 * message's promise settles when the stream has taken its bytes.
 */
export class BatchedMessageWriter extends AbstractMessageWriter implements MessageWriter {
  readonly #writable: Writable;
  #queue: Queued[] = [];
  #scheduled = false;
  #errors = 0;

  constructor(writable: Writable) {
    super();
    this.#writable = writable;
    // Kept after dispose, as the library's writer does: a late error on a closed pipe is heard, not thrown.
    writable.on('error', (error) => this.fireError(error));
    writable.on('close', () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    let header: string;
    let body: Buffer[];
    try {
      ({ header, body } = encodeMessage(message));
    } catch (error) {
      this.fireError(error, message);
      return Promise.reject(error);
    }
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ header, body, message, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#scheduled = false;
    const batch = this.#queue;
    this.#queue = [];
    const writable = this.#writable;
    if (writable.destroyed || writable.writableEnded) {
      const error = new Error('The stream to the other end has closed.');
      for (const item of batch) this.#failed(error, item);
      return;
    }
    writable.cork();
    for (const item of batch) {
      writable.write(item.header, 'latin1');
      const last = item.body.length - 1;
      for (let index = 0; index < last; index += 1) writable.write(item.body[index]);
      writable.write(item.body[last], (error) => (error === undefined || error === null ? item.resolve() : this.#failed(error, item)));
    }
    writable.uncork();
  }

  #failed(error: Error, item: Queued): void {
    this.#errors += 1;
    this.fireError(error, item.message, this.#errors);
    item.reject(error);
  }

  end(): void {
    this.#writable.end();
  }
}

/** A message's header and body: its JSON, and after it the UTF-8 bytes of each long string. */
function encodeMessage(message: Message): { header: string; body: Buffer[] } {
  const { json, strings } = splitMessage(message);
  const body = [Buffer.from(json, 'utf8')];
  if (strings.length === 0) return { header: `Content-Length: ${body[0]!.length}\r\n\r\n`, body };
  for (const { text } of strings) body.push(Buffer.from(text, 'utf8'));
  const length = body.reduce((sum, bytes) => sum + bytes.length, 0);
  const table = attachmentsHeader(
    strings.map(({ path }) => path),
    body.slice(1).map((bytes) => bytes.length),
  );
  // Paths through very long keys would make a header the reader refuses: such a message goes whole.
  if (table.length > MAX_TABLE_BYTES) {
    const whole = Buffer.from(JSON.stringify(message), 'utf8');
    return { header: `Content-Length: ${whole.length}\r\n\r\n`, body: [whole] };
  }
  return { header: `Content-Length: ${length}\r\n${ATTACHMENTS_HEADER}: ${table}\r\n\r\n`, body };
}
