import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { prepareToolCall, runTool } from './run-tool.js';
import { createSession } from './session.js';
import { defineTool } from './tool.js';

/** A tool whose execute applies its own policy (forbidden paths), counting how often each part runs. */
function guardedTool(options: { executeChecksPolicy: boolean; needsApproval?: boolean }) {
  const calls = { policy: 0, execute: 0 };
  const policy = (path: string) => (path.startsWith('/') ? `\`${path}\` is outside the workspace.` : undefined);
  const tool = defineTool({
    name: 'change_thing',
    description: 'Changes a thing.',
    kind: 'edit',
    input: z.object({ path: z.string() }),
    needsApproval: options.needsApproval ?? false,
    executeChecksPolicy: options.executeChecksPolicy,
    checkPolicy: ({ path }) => {
      calls.policy += 1;
      return policy(path);
    },
    execute: ({ path }) => {
      calls.execute += 1;
      const refusal = policy(path);
      return refusal === undefined ? `changed ${path}` : { text: refusal, isError: true };
    },
  });
  return { tool, calls };
}

describe('executeChecksPolicy: the policy check runs only before someone is asked', () => {
  it('a call nobody is asked about goes straight to execute, which refuses what the policy would', async () => {
    const { tool, calls } = guardedTool({ executeChecksPolicy: true });
    const session = createSession();
    expect(await runTool(tool, { path: 'a.txt' }, { session })).toEqual({ text: 'changed a.txt', isError: false });
    expect(await runTool(tool, { path: '/etc/passwd' }, { session, mode: 'auto' })).toEqual({ text: '`/etc/passwd` is outside the workspace.', isError: true });
    expect(calls).toEqual({ policy: 0, execute: 2 });
  });

  it('the same results as without the flag, where the policy runs first', async () => {
    const flagged = guardedTool({ executeChecksPolicy: true });
    const plain = guardedTool({ executeChecksPolicy: false });
    for (const input of [{ path: 'a.txt' }, { path: '/x' }]) {
      for (const mode of ['ask', 'auto', 'accept-edits', 'plan'] as const) {
        const session = createSession();
        expect(await runTool(flagged.tool, input, { session, mode })).toEqual(await runTool(plain.tool, input, { session, mode }));
      }
    }
    expect(plain.calls.policy).toBe(8);
    // Plan mode refuses edits: the policy still runs there, so its refusal comes first.
    expect(flagged.calls.policy).toBe(2);
  });

  it('before a person is asked the policy runs, and a refused call is never shown to them', async () => {
    const { tool, calls } = guardedTool({ executeChecksPolicy: true, needsApproval: true });
    const session = createSession();
    const asked: string[] = [];
    const approve = (request: { description: string }) => (asked.push(request.description), 'approve' as const);
    expect((await runTool(tool, { path: '/x' }, { session, approve })).text).toBe('`/x` is outside the workspace.');
    expect(asked).toEqual([]);
    expect((await runTool(tool, { path: 'b.txt' }, { session, approve })).text).toBe('changed b.txt');
    expect(asked).toHaveLength(1);
    expect(calls).toEqual({ policy: 2, execute: 1 });
  });

  it('an already approved call (the AI SDK flow) skips the check; prepareToolCall still checks before asking', async () => {
    const { tool, calls } = guardedTool({ executeChecksPolicy: true, needsApproval: true });
    const session = createSession();
    // The refusal carries what would have been asked, for hosts that decide about a batch before it runs.
    expect(await prepareToolCall(tool, { path: '/x' }, { session })).toEqual({
      status: 'done',
      result: { text: '`/x` is outside the workspace.', isError: true },
      refusedBy: 'policy',
      refusedRequest: expect.objectContaining({ toolName: 'change_thing', input: { path: '/x' } }),
    });
    expect((await prepareToolCall(tool, { path: 'c.txt' }, { session })).status).toBe('needs-approval');
    expect(await prepareToolCall(tool, { path: 'c.txt' }, { session, approved: true })).toEqual({ status: 'ready', input: { path: 'c.txt' } });
    expect(calls.policy).toBe(2);
    expect((await runTool(tool, { path: '/x' }, { session, approved: true })).text).toBe('`/x` is outside the workspace.');
    expect(calls).toEqual({ policy: 2, execute: 1 });
  });
});
