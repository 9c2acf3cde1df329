import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectTools,
  createFileTools,
  createGitHubTools,
  createScratchTools,
  createSession,
  createShellTools,
  createTaskListTools,
  decideApproval,
  Workspace,
  type ApprovalMode,
  type ToolDefinition,
} from '../../src/index.js';
import { toolAnnotations } from './annotations.js';
import { effectiveOverrides } from './approval-policy.js';
import { cliApprovalHint } from './cli-approval-hint.js';

let base: string;
let tools: ToolDefinition<any>[];
beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-mcp-hint-'));
  const workspace = new Workspace(base);
  tools = [...collectTools([createFileTools({ workspace }), createShellTools({ workspace }), createScratchTools({ workspace }), createTaskListTools(), createGitHubTools({ workspace })]).values()];
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** An input each tool accepts, so the decision is made as for a real call. */
const INPUTS: Record<string, Record<string, unknown>> = {
  create_file: { path: 'a.txt', content: 'a' }, write_file: { path: 'a.txt', content: 'a' }, edit_file: { path: 'a.txt', old_string: 'a', new_string: 'b' },
  move_file: { source: 'a.txt', destination: 'b.txt' }, delete_file: { path: 'a.txt' }, run_shell: { command: 'npm test' },
  gh_create_pr: { title: 'A change', body: 'Why.' }, gh_comment: { number: 1, body: 'Thanks.' },
  note_write: { name: 'plan', content: 'x' }, log_append: { entry: 'x' }, task_add: { tasks: [{ subject: 'x' }] },
  task_update: { updates: [{ id: '1', status: 'completed' }] }, task_remove: { ids: ['1'] },
};

const SETTINGS: Array<{ mode: ApprovalMode; askForChanges: boolean }> = [
  { mode: 'ask', askForChanges: false }, { mode: 'ask', askForChanges: true }, { mode: 'accept-edits', askForChanges: false }, { mode: 'plan', askForChanges: false },
];

/** The setting a hint's words describe, read back from the text. */
function settingNamed(hint: string, current: { mode: ApprovalMode; askForChanges: boolean }) {
  const mode = /with `--mode ([a-z-]+)`/.exec(hint)?.[1] as ApprovalMode | undefined;
  return { mode: mode ?? current.mode, askForChanges: current.askForChanges && !hint.includes('without `--ask-for-changes`') };
}

describe('the refusal when the client cannot ask', () => {
  it('names, for every tool and setting that asks, a flag change under which that call runs', async () => {
    let checked = 0;
    for (const setting of SETTINGS) {
      const hint = cliApprovalHint(setting);
      for (const tool of tools) {
        const parsed = tool.input.safeParse(INPUTS[tool.name] ?? {});
        // Reading tools never ask; every other tool gets an input above.
        if (!parsed.success && toolAnnotations(tool).readOnlyHint) continue;
        if (!parsed.success) throw new Error(`Give an input for ${tool.name}`);
        const input = parsed.data;
        const overrides = effectiveOverrides(tools, setting.askForChanges, undefined);
        const verdict = await decideApproval(tool, input, { session: createSession(), mode: setting.mode, overrides });
        if (verdict.type === 'run') continue;
        const text = await hint({ tool, input, reason: verdict.type === 'ask' ? 'needs-approval' : 'mode' });
        const named = settingNamed(text, setting);
        expect(named, `${tool.name} under ${JSON.stringify(setting)}: ${text}`).not.toEqual(setting);
        const after = await decideApproval(tool, input, { session: createSession(), mode: named.mode, overrides: effectiveOverrides(tools, named.askForChanges, undefined) });
        expect(after.type, `${tool.name} under ${JSON.stringify(named)}`).toBe('run');
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(25);
  });

  it.each([
    ['run_shell', { mode: 'ask', askForChanges: false }, 'To allow it, the user can restart the agent-toolbelt server with `--mode auto` (nothing asks), or use an MCP client that supports elicitation.'],
    ['run_shell', { mode: 'accept-edits', askForChanges: false }, 'To allow it, the user can restart the agent-toolbelt server with `--mode auto` (nothing asks), or use an MCP client that supports elicitation.'],
    ['delete_file', { mode: 'ask', askForChanges: false }, 'To allow it, the user can restart the agent-toolbelt server with `--mode auto` (nothing asks), or use an MCP client that supports elicitation.'],
    ['write_file', { mode: 'ask', askForChanges: false }, 'To allow it, the user can restart the agent-toolbelt server with `--mode accept-edits` (file changes other than deleting run unasked), or use an MCP client that supports elicitation.'],
    ['create_file', { mode: 'ask', askForChanges: true }, 'To allow it, the user can restart the agent-toolbelt server without `--ask-for-changes`, or use an MCP client that supports elicitation.'],
    ['write_file', { mode: 'ask', askForChanges: true }, 'To allow it, the user can restart the agent-toolbelt server without `--ask-for-changes` and with `--mode accept-edits` (file changes other than deleting run unasked), or use an MCP client that supports elicitation.'],
  ] as const)('for %s under %j says: %s', async (name, setting, expected) => {
    const tool = tools.find((candidate) => candidate.name === name)!;
    expect(await cliApprovalHint(setting)({ tool, input: tool.input.parse(INPUTS[name]), reason: 'needs-approval' })).toBe(expected);
  });

  it.each([
    ['create_file', 'To allow it, the user can restart the agent-toolbelt server with `--mode ask` (reading, creating, editing and moving files run unasked).'],
    ['write_file', 'To allow it, the user can restart the agent-toolbelt server with `--mode accept-edits` (file changes other than deleting run unasked).'],
    ['run_shell', 'To allow it, the user can restart the agent-toolbelt server with `--mode auto` (nothing asks).'],
  ] as const)('for %s refused by --mode plan says: %s', async (name, expected) => {
    const tool = tools.find((candidate) => candidate.name === name)!;
    expect(await cliApprovalHint({ mode: 'plan', askForChanges: false })({ tool, input: tool.input.parse(INPUTS[name]), reason: 'mode' })).toBe(expected);
  });
});
