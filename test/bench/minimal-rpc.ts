/**
 * The framing of the minimal JSON-RPC that issue 30's remote floor row times the protocol
 * against (test/bench/minimal-rpc-child.ts is its box, `minimalConnection` in
 * issue-30-remote.ts its caller): `Content-Length` headers and JSON bodies, as the protocol's,
 * with nothing but Node.js. A bad message throws: it is a bench, not a server.
 */
import type { Writable } from 'node:stream';

/** A `data` listener that hands on every whole message the stream has brought, parsed, in order. */
export function framedMessages<T>(onMessage: (message: T) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      const end = pending.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/Content-Length: (\d+)/i.exec(pending.toString('latin1', 0, end))![1]);
      if (pending.length < end + 4 + length) return;
      const message = JSON.parse(pending.toString('utf8', end + 4, end + 4 + length)) as T;
      pending = pending.subarray(end + 4 + length);
      onMessage(message);
    }
  };
}

/** `message` framed: its header and its JSON. */
function framed(message: object): string {
  const body = JSON.stringify({ jsonrpc: '2.0', ...message });
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** A sender of framed messages to `stream`: the messages sent in one turn leave in one write at its end, as the real connection's do. */
export function sentPerTurn(stream: Writable): (message: object) => void {
  let queued: string[] = [];
  return (message) => {
    if (queued.length === 0) {
      setImmediate(() => {
        const all = queued.join('');
        queued = [];
        stream.write(all);
      });
    }
    queued.push(framed(message));
  };
}
