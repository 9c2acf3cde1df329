import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CallQueue, withCallOrder } from './call-order.js';
import { runTool } from './run-tool.js';
import { createSession } from './session.js';
import { defineTool, type ToolKind } from './tool.js';

/** A promise with its resolver, to hold a call open until the test lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('CallQueue', () => {
  it('runs looking calls side by side and a changing call alone, in arrival order', async () => {
    const queue = new CallQueue();
    const log: string[] = [];
    const run = async (name: string, kind: ToolKind, hold: Promise<void>) => {
      const turn = queue.enter(kind);
      await turn.ready;
      log.push(`start ${name}`);
      await hold;
      log.push(`end ${name}`);
      turn.release();
    };
    const first = gate();
    const edit = gate();
    const calls = [
      run('read1', 'read', first.opened),
      run('read2', 'search', Promise.resolve()),
      run('edit', 'edit', edit.opened),
      run('read3', 'read', Promise.resolve()),
    ];
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log).toEqual(['start read1', 'start read2', 'end read2']);
    first.open();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log).toEqual(['start read1', 'start read2', 'end read2', 'end read1', 'start edit']);
    edit.open();
    await Promise.all(calls);
    expect(log.slice(5)).toEqual(['end edit', 'start read3', 'end read3']);
  });
});

describe('withCallOrder', () => {
  it('answers undefined when the signal aborts before the turn, and holds the place until then', async () => {
    const session = createSession();
    const blocker = gate();
    const order: string[] = [];
    const first = withCallOrder(session, 'execute', undefined, async () => {
      await blocker.opened;
      order.push('first');
    });
    const controller = new AbortController();
    const cancelled = withCallOrder(session, 'edit', controller.signal, async () => order.push('cancelled'));
    const after = withCallOrder(session, 'edit', undefined, async () => order.push('after'));
    controller.abort();
    expect(await cancelled).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The cancelled call gave up, but the call after it still waits for the one before.
    expect(order).toEqual([]);
    blocker.open();
    await Promise.all([first, after]);
    expect(order).toEqual(['first', 'after']);
  });
});

describe('runTool keeps a session\'s calls in order', () => {
  it('a read started after an approval-needing edit waits for the person and sees the edit', async () => {
    let text = 'old';
    const decide = gate();
    const read = defineTool({ name: 'read_text', description: '', kind: 'read', input: z.object({}), execute: () => text });
    const write = defineTool({
      name: 'write_text', description: '', kind: 'edit', needsApproval: true,
      input: z.object({ value: z.string() }),
      execute: ({ value }) => ((text = value), 'written'),
    });
    const session = createSession();
    const calls = [
      runTool(read, {}, { session }),
      runTool(write, { value: 'new' }, { session, approve: async () => (await decide.opened, 'approve' as const) }),
      runTool(read, {}, { session }),
    ];
    await new Promise((resolve) => setTimeout(resolve, 20));
    decide.open();
    const results = await Promise.all(calls);
    expect(results.map((result) => result.text)).toEqual(['old', 'written', 'new']);
  });

  it('calls of different sessions do not wait for each other', async () => {
    const hold = gate();
    const slow = defineTool({ name: 'slow', description: '', kind: 'execute', input: z.object({}), execute: async () => (await hold.opened, 'slow') });
    const fast = defineTool({ name: 'fast', description: '', kind: 'execute', input: z.object({}), execute: () => 'fast' });
    const pending = runTool(slow, {}, { session: createSession() });
    expect((await runTool(fast, {}, { session: createSession() })).text).toBe('fast');
    hold.open();
    expect((await pending).text).toBe('slow');
  });
});
