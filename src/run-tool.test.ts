import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApprovalRequest } from './approval.js';
import { ToolError } from './errors/tool-error.js';
import { prepareToolCall, runTool } from './run-tool.js';
import { createSession, restoreSession } from './session.js';
import { defineTool, type ToolKind } from './tool.js';

function makeTool(kind: ToolKind = 'edit', needsApproval: boolean | undefined = undefined) {
  const calls: unknown[] = [];
  const tool = defineTool({
    name: 'save_note',
    description: 'Saves a note.',
    kind,
    input: z.object({
      title: z.string().min(1).describe('Title'),
      count: z.number().int().min(1).default(1).describe('How many'),
    }),
    needsApproval,
    describeCall: ({ title }) => `Save: ${title}`,
    checkPolicy: ({ title }) => (title === 'forbidden' ? 'The title `forbidden` is not allowed. Pick another title.' : undefined),
    execute: (input) => {
      calls.push(input);
      return { text: `saved ${input.title} x${input.count}`, data: { title: input.title } };
    },
  });
  return { tool, calls };
}

describe('defineTool', () => {
  it('refuses names that are not snake_case', () => {
    expect(() =>
      defineTool({ name: 'Bad-Name', description: '', kind: 'read', input: z.object({}), execute: () => '' }),
    ).toThrow('Expected the tool `name` to match /^[a-z][a-z0-9_]{0,63}$/ (snake_case, at most 64 characters), got `Bad-Name`.');
  });

  it('refuses an unknown kind', () => {
    expect(() =>
      defineTool({ name: 'x', description: '', kind: 'write' as ToolKind, input: z.object({}), execute: () => '' }),
    ).toThrow('Expected the `kind` of tool `x` to be one of read, search, edit, delete, move, execute, think, fetch, other, got `write`.');
  });
});

describe('runTool', () => {
  it('parses the input, applies defaults, runs and normalises the result', async () => {
    const { tool, calls } = makeTool('read');
    const result = await runTool(tool, { title: 'a' }, { session: createSession() });
    expect(result).toEqual({ text: 'saved a x1', isError: false, data: { title: 'a' } });
    expect(calls).toEqual([{ title: 'a', count: 1 }]);
  });

  it('names every field at fault and runs nothing', async () => {
    const { tool, calls } = makeTool('read');
    const result = await runTool(tool, { title: '', count: 0.5 }, { session: createSession() });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Invalid arguments for save_note: `title`: .+; `count`: .+\. Fix the arguments and call save_note again\.$/);
    expect(calls).toEqual([]);
  });

  it('refuses by policy before anyone is asked', async () => {
    const { tool, calls } = makeTool('edit', true);
    const asked: ApprovalRequest[] = [];
    const result = await runTool(tool, { title: 'forbidden' }, { session: createSession(), approve: (request) => (asked.push(request), 'approve') });
    expect(result).toEqual({ text: 'The title `forbidden` is not allowed. Pick another title.', isError: true });
    expect(asked).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('refuses a call that needs approval when there is no approver', async () => {
    const { tool, calls } = makeTool('edit', true);
    const result = await runTool(tool, { title: 'a' }, { session: createSession() });
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      "save_note needs the user's approval and this host cannot ask for it, so it was not run. Tell the user what you wanted to do and let them run it, or use a tool that needs no approval.",
    );
    expect(calls).toEqual([]);
  });

  it('asks with a readable request and runs on approve', async () => {
    const { tool, calls } = makeTool('edit', true);
    const asked: ApprovalRequest[] = [];
    const result = await runTool(tool, { title: 'a' }, { session: createSession(), toolCallId: 'call-1', approve: (request) => (asked.push(request), 'approve') });
    expect(result.text).toBe('saved a x1');
    expect(asked).toEqual([
      { toolName: 'save_note', toolCallId: 'call-1', kind: 'edit', input: { title: 'a', count: 1 }, description: 'Save: a', canAlwaysApprove: true },
    ]);
    expect(calls).toHaveLength(1);
  });

  it('passes a denial and its reason to the model', async () => {
    const { tool, calls } = makeTool('edit', true);
    const session = createSession();
    expect((await runTool(tool, { title: 'a' }, { session, approve: () => 'deny' })).text).toBe(
      'Action denied by the user: save_note was not run. Do not retry the same call; ask or change approach.',
    );
    expect((await runTool(tool, { title: 'a' }, { session, approve: () => ({ type: 'deny', reason: 'not now' }) })).text).toBe(
      'Action denied by the user: save_note was not run. Do not retry the same call; ask or change approach. The user said: not now',
    );
    expect(calls).toEqual([]);
  });

  it('remembers "always" in the session, across JSON', async () => {
    const { tool, calls } = makeTool('edit', true);
    const session = createSession();
    await runTool(tool, { title: 'a' }, { session, approve: () => 'always' });
    const restored = restoreSession(JSON.parse(JSON.stringify(session)));
    const result = await runTool(tool, { title: 'b' }, { session: restored });
    expect(result.text).toBe('saved b x1');
    expect(calls).toHaveLength(2);
  });

  it('runs an edited call with the changed arguments, parsed and checked again', async () => {
    const { tool, calls } = makeTool('edit', true);
    const session = createSession();
    const edited = await runTool(tool, { title: 'a' }, { session, approve: () => ({ type: 'edit', input: { title: 'b', count: 3 } }) });
    expect(edited.text).toBe('saved b x3');
    const refused = await runTool(tool, { title: 'a' }, { session, approve: () => ({ type: 'edit', input: { title: 'forbidden' } }) });
    expect(refused.isError).toBe(true);
    expect(calls).toEqual([{ title: 'b', count: 3 }]);
  });

  it('turns a ToolError into its message and any other throw into a readable error', async () => {
    const session = createSession();
    const expected = defineTool({
      name: 'expected', description: '', kind: 'read', input: z.object({}),
      execute: () => { throw new ToolError('No such thing. Try list_directory.', { data: { code: 1 } }); },
    });
    expect(await runTool(expected, {}, { session })).toEqual({ text: 'No such thing. Try list_directory.', isError: true, data: { code: 1 } });
    const bug = defineTool({
      name: 'bug', description: '', kind: 'read', input: z.object({}),
      execute: () => { throw new RangeError('boom'); },
    });
    const result = await runTool(bug, {}, { session });
    expect(result.isError).toBe(true);
    expect(result.text).toBe('bug failed with an unexpected error: boom. This is not a problem with your input; try another approach or tell the user.');
    expect(result.error).toBeInstanceOf(RangeError);
  });

  it('does not start a call whose signal is already aborted', async () => {
    const { tool, calls } = makeTool('read');
    const controller = new AbortController();
    controller.abort();
    const result = await runTool(tool, { title: 'a' }, { session: createSession(), signal: controller.signal });
    expect(result).toEqual({ text: 'save_note was cancelled before it started.', isError: true });
    expect(calls).toEqual([]);
  });
});

describe('approval modes', () => {
  it('plan refuses edit, delete, move and execute tools, and runs reading ones', async () => {
    for (const kind of ['edit', 'delete', 'move', 'execute'] as const) {
      const { tool, calls } = makeTool(kind);
      const result = await runTool(tool, { title: 'a' }, { session: createSession(), mode: 'plan', approve: () => 'approve' });
      expect(result.text).toBe(`save_note is not available in plan mode: ${kind} tools are switched off until the user leaves plan mode. Describe the change you would make instead.`);
      expect(calls).toEqual([]);
    }
    const { tool } = makeTool('read');
    expect((await runTool(tool, { title: 'a' }, { session: createSession(), mode: 'plan' })).isError).toBe(false);
  });

  it('accept-edits runs edit tools unasked but still asks for execute tools', async () => {
    const edit = makeTool('edit', true);
    expect((await runTool(edit.tool, { title: 'a' }, { session: createSession(), mode: 'accept-edits' })).isError).toBe(false);
    const execute = makeTool('execute', true);
    expect((await runTool(execute.tool, { title: 'a' }, { session: createSession(), mode: 'accept-edits' })).isError).toBe(true);
  });

  it('auto runs everything that passes the policy', async () => {
    const { tool } = makeTool('execute', true);
    expect((await runTool(tool, { title: 'a' }, { session: createSession(), mode: 'auto' })).isError).toBe(false);
    expect((await runTool(tool, { title: 'forbidden' }, { session: createSession(), mode: 'auto' })).isError).toBe(true);
  });

  it('host overrides beat the tool default, including functions of the input', async () => {
    const { tool } = makeTool('read');
    const session = createSession();
    const prepared = await prepareToolCall(tool, { title: 'big', count: 5 }, { session, needsApproval: { save_note: (input) => input.count > 3 } });
    expect(prepared.status).toBe('needs-approval');
    const small = await prepareToolCall(tool, { title: 'small' }, { session, needsApproval: { save_note: (input) => input.count > 3 } });
    expect(small.status).toBe('ready');
  });

  it('never remembers "always" for a call without an approval key', async () => {
    const calls: unknown[] = [];
    const tool = defineTool({
      name: 'run', description: '', kind: 'execute', needsApproval: true,
      input: z.object({ command: z.string() }),
      approvalKey: ({ command }) => (command.includes(';') ? undefined : command.split(' ')[0]),
      execute: ({ command }) => (calls.push(command), 'ok'),
    });
    const session = createSession();
    await runTool(tool, { command: 'ls; rm x' }, { session, approve: () => 'always' });
    expect(session.approvals).toEqual([]);
    await runTool(tool, { command: 'ls -la' }, { session, approve: () => 'always' });
    expect(session.approvals).toEqual(['run:ls']);
    expect((await runTool(tool, { command: 'ls src' }, { session })).isError).toBe(false);
    expect((await runTool(tool, { command: 'rm src' }, { session })).isError).toBe(true);
  });
});

describe('sessions', () => {
  it('round-trip state and approvals through JSON text', () => {
    const session = createSession({ id: 'chat-1' });
    session.state('tasks', () => ({ items: [1, 2] })).items.push(3);
    session.approve('write_file');
    const restored = restoreSession(JSON.stringify(session));
    expect(restored.id).toBe('chat-1');
    expect(restored.state('tasks', () => ({ items: [] as number[] }))).toEqual({ items: [1, 2, 3] });
    expect(restored.isApproved('write_file')).toBe(true);
  });

  it('refuses something that is not a saved session', () => {
    expect(() => restoreSession({ id: 'x' } as never)).toThrow('Expected the output of `session.toJSON()`');
  });

  it('runs its closers once on close and keeps live objects out of JSON', async () => {
    const session = createSession();
    let closed = 0;
    session.live('jobs', () => ({ running: true }));
    session.onClose(() => { closed += 1; });
    await session.close();
    await session.close();
    expect(closed).toBe(1);
    expect(session.closed).toBe(true);
    expect(JSON.stringify(session)).not.toContain('running');
  });
});
