import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { approvalBatchesOf, mayMeetPolicy } from './approval-batches.js';
import { prepareToolCall } from './run-tool.js';
import { createSession, type Session } from './session.js';
import { defineTool } from './tool.js';

/** Tools over a pretend file system in the session: `look` marks a path as read; `change` needs approval and a read first. */
function tools() {
  const readPaths = (session: Session) => session.state<string[]>('read', () => []);
  const look = defineTool({ name: 'look', description: 'Reads.', kind: 'read', input: z.object({ path: z.string() }), execute: ({ path }, { session }) => {
      readPaths(session).push(path);
      return 'ok';
    },
  });
  const run = defineTool({ name: 'run', description: 'Runs.', kind: 'execute', input: z.object({ command: z.string() }), execute: () => 'ran' });
  const change = defineTool({
    name: 'change',
    description: 'Changes.',
    kind: 'edit',
    needsApproval: true,
    input: z.object({ path: z.string(), content: z.string() }),
    checkPolicy: ({ path }, { session }) => (readPaths(session).includes(path) ? undefined : `Read ${path} first.`),
    describeCall: ({ path }) => `Change ${path}`,
    execute: () => 'changed',
  });
  return { look, run, change };
}

describe('prepareToolCall: what a refused call would have asked', () => {
  it('gives the request when only the policy stands in the way, and none when the call would not ask anyway', async () => {
    const { change } = tools();
    const session = createSession();
    const refused = await prepareToolCall(change, { path: 'a.ts', content: 'x' }, { session, toolCallId: 'c1' });
    expect(refused).toMatchObject({ status: 'done', result: { text: 'Read a.ts first.', isError: true }, refusedRequest: { toolName: 'change', toolCallId: 'c1', description: 'Change a.ts' } });
    for (const options of [{ mode: 'auto' as const }, { mode: 'plan' as const }, { needsApproval: { change: false } }, { approved: true }]) {
      const prepared = await prepareToolCall(change, { path: 'a.ts', content: 'x' }, { session, ...options });
      expect(prepared).toMatchObject({ status: 'done' });
      expect(prepared).not.toHaveProperty('refusedRequest');
    }
  });
});

describe('ApprovalBatches: one batch checked before any of it runs', () => {
  it('asks about a refused call when an earlier call of the batch names the same path, and not otherwise', async () => {
    const { look, change } = tools();
    const session = createSession();
    const batches = approvalBatchesOf(session);
    const step = {};
    const decide = async (tool: typeof look | typeof change, input: Record<string, unknown>, id: string, batch: object | 'none' = step) =>
      batches.decide(batch === 'none' ? undefined : batch, id, tool, await prepareToolCall(tool, input, { session, toolCallId: id }));

    expect(await decide(look, { path: './a.ts' }, 'r1')).toBeUndefined();
    expect(await decide(change, { path: 'a.ts', content: 'x' }, 'w1')).toMatchObject({ toolCallId: 'w1', description: 'Change a.ts' });
    expect(await decide(change, { path: 'b.ts', content: 'x' }, 'w2')).toBeUndefined();
    expect(batches.refusedWhenChecked('w2')).toBe(true);
    expect(batches.refusedWhenChecked('w1')).toBe(false);
    // Another batch knows nothing of this one, and a call without a batch stands alone.
    expect(await decide(change, { path: 'a.ts', content: 'x' }, 'w3', {})).toBeUndefined();
    expect(await decide(change, { path: 'a.ts', content: 'x' }, 'w4', 'none')).toBeUndefined();
  });

  it('does not count an earlier call that already ran or was refused', async () => {
    const { look, change } = tools();
    const session = createSession();
    const batches = approvalBatchesOf(session);
    const step = {};
    batches.decide(step, 'r1', look, await prepareToolCall(look, { path: 'a.ts' }, { session }));
    batches.finished('r1');
    batches.decide(step, 'w0', change, await prepareToolCall(change, { path: 'a.ts', content: 'y' }, { session }));
    expect(batches.decide(step, 'w1', change, await prepareToolCall(change, { path: 'a.ts', content: 'x' }, { session }))).toBeUndefined();
  });

  it('takes a command for something that may meet any policy', () => {
    expect(mayMeetPolicy({ kind: 'execute', values: new Set(['touch a.ts']) }, new Set(['a.ts']))).toBe(true);
    expect(mayMeetPolicy({ kind: 'read', values: new Set(['a.ts']) }, new Set(['a.ts', 'x']))).toBe(true);
    expect(mayMeetPolicy({ kind: 'read', values: new Set(['b.ts']) }, new Set(['a.ts']))).toBe(false);
  });
});
