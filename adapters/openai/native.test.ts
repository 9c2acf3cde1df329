import OpenAI from 'openai';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileTools, createSession, createShellTools, Workspace, type ApprovalRequest } from '../../src/index.js';
import { toOpenAI } from './index.js';
import { responsesOutputReply, responsesReply, startScriptedServer, type ScriptedServer, type ScriptStep } from './test-support/scripted-server.js';

let server: ScriptedServer | undefined;
let base: string;
let root: string;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-openai-native-')));
  root = path.join(base, 'root');
  await fs.mkdir(root);
  await fs.writeFile(path.join(root, 'a.txt'), 'one\ntwo\n');
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await fs.rm(base, { recursive: true, force: true });
});

/** A Responses reply whose output is the given items (function calls, apply_patch_call, shell_call), or a text when none. */
function itemsReply(items: readonly Record<string, unknown>[]): ScriptStep {
  return items.length > 0 ? responsesOutputReply(items) : responsesReply({ text: 'Done.' });
}

const patchCall = (callId: string, operation: Record<string, unknown>) => ({ type: 'apply_patch_call', id: `apc_${callId}`, call_id: callId, status: 'completed', operation });

describe("toOpenAI({ api: 'responses', native: true }) with the real openai client", () => {
  it('sends apply_patch and shell, and answers apply_patch_call and shell_call items with their output items', async () => {
    server = await startScriptedServer([
      itemsReply([{ type: 'function_call', id: 'fc_1', call_id: 'call_read', name: 'read_file', arguments: JSON.stringify({ path: 'a.txt', start_line: null, end_line: null }), status: 'completed' }]),
      itemsReply([
        patchCall('call_update', { type: 'update_file', path: 'a.txt', diff: '@@\n one\n-two\n+TWO\n' }),
        patchCall('call_escape', { type: 'create_file', path: '../escape.txt', diff: '+pwned\n' }),
        { type: 'shell_call', id: 'sh_1', call_id: 'call_shell', status: 'completed', action: { commands: ['echo hi', 'exit 3'], timeout_ms: 5_000, max_output_length: 1_000 } },
      ]),
      itemsReply([]),
    ]);
    const workspace = new Workspace(root);
    const asked: ApprovalRequest[] = [];
    const belt = toOpenAI([createFileTools({ workspace }), createShellTools({ workspace })], {
      api: 'responses',
      native: true,
      session: createSession(),
      onApproval: (request) => (asked.push(request), 'approve'),
    });
    const client = new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 });
    let input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'Go.' }];
    for (let step = 0; step < 3; step++) {
      const response = await client.responses.create({ model: 'scripted', instructions: belt.instructions, input, tools: belt.tools });
      const handled = await belt.handleToolCalls(response.output);
      if (handled.outcomes.length === 0) break;
      input = [...input, ...(response.output as OpenAI.Responses.ResponseInputItem[]), ...handled.messages];
    }

    const tools = server.requests[0]!.body.tools as Array<{ type: string; name?: string }>;
    expect(tools.filter((tool) => tool.type !== 'function')).toEqual([{ type: 'apply_patch' }, { type: 'shell' }]);
    expect(tools.map((tool) => tool.name).filter(Boolean).sort()).toEqual(['find_files', 'list_directory', 'move_file', 'read_file', 'search_files']);

    const sent = server.requests[2]!.body.input as any[];
    const outputs = sent.filter((item) => item.type?.endsWith('_output'));
    expect(outputs.map((item) => [item.type, item.call_id, item.status])).toEqual([
      ['function_call_output', 'call_read', undefined],
      ['apply_patch_call_output', 'call_update', 'completed'],
      ['apply_patch_call_output', 'call_escape', 'failed'],
      ['shell_call_output', 'call_shell', undefined],
    ]);
    expect(outputs[2].output).toContain('is outside the workspace');
    expect(outputs[3]).toEqual({
      type: 'shell_call_output',
      call_id: 'call_shell',
      max_output_length: 1_000,
      output: [
        { stdout: 'hi', stderr: '', outcome: { type: 'exit', exit_code: 0 } },
        { stdout: '', stderr: '', outcome: { type: 'exit', exit_code: 3 } },
      ],
    });
    expect(await fs.readFile(path.join(root, 'a.txt'), 'utf8')).toBe('one\nTWO\n');
    await expect(fs.stat(path.join(base, 'escape.txt'))).rejects.toThrow();
    expect(asked.map((request) => [request.toolName, request.description])).toEqual([['shell', 'Run: echo hi\nRun: exit 3']]);
  });

  it('leaves a shell_call pending without onApproval and refuses native with Chat Completions', async () => {
    const workspace = new Workspace(root);
    const belt = toOpenAI([createShellTools({ workspace })], { api: 'responses', native: true });
    const handled = await belt.handleToolCalls([{ type: 'shell_call', call_id: 'call_1', action: { commands: ['echo later'], timeout_ms: null, max_output_length: null } } as never]);
    expect(handled.pending).toMatchObject([{ type: 'approval', callId: 'call_1', toolName: 'shell' }]);
    const resolved = await belt.resolvePending(handled, { call_1: 'deny' });
    expect(resolved.messages).toEqual([
      { type: 'shell_call_output', call_id: 'call_1', max_output_length: null, output: [{ stdout: '', stderr: 'Error: Action denied by the user: shell was not run. Do not retry the same call; ask or change approach.', outcome: { type: 'exit', exit_code: 1 } }] },
    ]);
    expect(() => toOpenAI([createShellTools({ workspace })], { api: 'chat', native: true })).toThrow("use `api: 'responses'` with it");
    expect(() => toOpenAI([createShellTools({ workspace })], { api: 'responses', native: true, background: ['run_shell'] })).toThrow('leave `run_shell` out of `background`');
  });
});
