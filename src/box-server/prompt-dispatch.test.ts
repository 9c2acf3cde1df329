import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createMessageConnection } from 'vscode-jsonrpc/node';
import { BatchedMessageReader, BatchedMessageWriter } from '../workspace/remote/framing.js';
import { dispatchMessagesPromptly } from './prompt-dispatch.js';

/** A caller and a server connected by two in-process pipes, as the box server wires one. */
function connectedPair() {
  const toServer = new PassThrough();
  const toCaller = new PassThrough();
  const server = createMessageConnection(new BatchedMessageReader(toServer), new BatchedMessageWriter(toCaller));
  const caller = createMessageConnection(new BatchedMessageReader(toCaller), new BatchedMessageWriter(toServer));
  return { server, caller, close: () => (server.dispose(), caller.dispose()) };
}

describe('dispatchMessagesPromptly', () => {
  it('starts every request of a burst in the turn they arrive, in the order sent, notifications in their place', async () => {
    dispatchMessagesPromptly();
    const { server, caller, close } = connectedPair();
    try {
      const seen: string[] = [];
      let startedByNextTurn = -1;
      server.onNotification('note', (params: { n: number }) => {
        seen.push(`note ${params.n}`);
      });
      server.onRequest('work', async (params: { n: number }) => {
        if (seen.length === 0) setImmediate(() => (startedByNextTurn = seen.filter((entry) => entry.startsWith('work')).length));
        seen.push(`work ${params.n}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        return params.n * 2;
      });
      server.listen();
      caller.listen();
      const answers = Array.from({ length: 20 }, (_, n) => {
        if (n === 10) void caller.sendNotification('note', { n });
        return caller.sendRequest<number>('work', { n });
      });
      expect(await Promise.all(answers)).toEqual(Array.from({ length: 20 }, (_, n) => n * 2));
      // Without it the library starts one message a turn: one request would have started by then.
      expect(startedByNextTurn).toBe(20);
      expect(seen).toEqual([...Array.from({ length: 10 }, (_, n) => `work ${n}`), 'note 10', ...Array.from({ length: 10 }, (_, n) => `work ${n + 10}`)]);
    } finally {
      close();
    }
  });
});
