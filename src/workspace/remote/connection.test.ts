import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { RequestMessage } from 'vscode-jsonrpc/node';
import { RemoteConnection } from './connection.js';
import { BatchedMessageReader } from './framing.js';

/** A connection over two in-process pipes, and the requests it has written, as the box reads them. */
function connectionOverPipes() {
  const toBox = new PassThrough();
  const fromBox = new PassThrough();
  const connection = new RemoteConnection({ input: toBox, output: fromBox, ended: new Promise(() => undefined), kill: () => undefined }, 'pipes');
  const requests: RequestMessage[] = [];
  new BatchedMessageReader(toBox).listen((message) => requests.push(message as RequestMessage));
  return { connection, fromBox, requests };
}

/** The framed bytes of `messages`, as one chunk. */
function framed(messages: readonly object[]): Buffer {
  return Buffer.concat(
    messages.map((message) => {
      const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
      return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'latin1'), body]);
    }),
  );
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('RemoteConnection', () => {
  it('handles every answer and notification of a read in the turn it arrives, in the order the box sent them', async () => {
    const { connection, fromBox, requests } = connectionOverPipes();
    const seen: string[] = [];
    connection.onNotification('tools/progress', ({ id }) => seen.push(`progress ${id}`));
    // A notification nobody listens for, and one whose handler throws, drop only themselves.
    connection.onNotification('process/end', () => {
      throw new TypeError('a handler that fails');
    });
    const answers = Array.from({ length: 20 }, (_, n) =>
      connection.request('workspace/resolve', { path: `/f${n}` }).then((answer) => seen.push(`answer ${n} ${answer.absolute}`)),
    );
    await nextTurn();
    expect(requests).toHaveLength(20);
    const messages: object[] = [];
    for (const [n, request] of requests.entries()) {
      messages.push({ method: 'tools/progress', params: { id: n, update: { type: 'output', text: `${n}` } } });
      if (n === 5) messages.push({ method: 'process/end', params: { id: 1, stream: 'stdout' } }, { method: 'no/such', params: {} });
      messages.push({ id: request.id, result: { absolute: (request.params as { path: string }).path, exists: true } });
    }
    fromBox.write(framed(messages));
    // The library alone takes one message a turn: one of these 42 would have been handled.
    await nextTurn();
    expect(seen).toHaveLength(40);
    for (let n = 0; n < 20; n += 1) expect(seen.indexOf(`progress ${n}`)).toBeLessThan(seen.indexOf(`answer ${n} /f${n}`));
    expect(seen.filter((entry) => entry.startsWith('progress'))).toEqual(Array.from({ length: 20 }, (_, n) => `progress ${n}`));
    expect(seen.filter((entry) => entry.startsWith('answer'))).toEqual(Array.from({ length: 20 }, (_, n) => `answer ${n} /f${n}`));
    await Promise.all(answers);
    connection.fail('the test ended');
  });

  it('drops what the box sends after the connection is lost', async () => {
    const { connection, fromBox } = connectionOverPipes();
    const seen: number[] = [];
    connection.onNotification('tools/progress', ({ id }) => seen.push(id));
    fromBox.write(framed([{ method: 'tools/progress', params: { id: 1, update: { type: 'output', text: '' } } }]));
    await nextTurn();
    connection.fail('the test lost it');
    fromBox.write(framed([{ method: 'tools/progress', params: { id: 2, update: { type: 'output', text: '' } } }]));
    await nextTurn();
    expect(seen).toEqual([1]);
    await expect(connection.request('workspace/resolve', { path: '/f' })).rejects.toThrow('the test lost it');
  });
});
