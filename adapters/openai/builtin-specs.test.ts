import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { toStrictJsonSchema } from 'openai/lib/transform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAskUserTools,
  createDateTimeTools,
  createFileTools,
  createGitHubTools,
  createImageTools,
  createReadOnlyFileTools,
  createScratchTools,
  createShellTools,
  createTaskListTools,
  withBackground,
  Workspace,
  type ToolCollection,
} from '../../src/index.js';
import { toOpenAI, type ResponsesFunctionTool } from './index.js';
import { strictViolations } from './test-support/strict-rules.js';

let root: string;
let collections: ToolCollection[];

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-openai-specs-'));
  const workspace = new Workspace(root);
  collections = withBackground(
    [
      createFileTools({ workspace }),
      createShellTools({ workspace }),
      createTaskListTools(),
      createDateTimeTools(),
      createAskUserTools(),
      createImageTools({ workspace, vision: { ask: async () => 'an answer' } }),
      createScratchTools({ workspace }),
      createGitHubTools({ workspace }),
    ],
    { tools: ['run_shell'] },
  );
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('every built-in tool under OpenAI strict mode', () => {
  it('has a strict spec that follows the strict-mode rules and that the openai package leaves unchanged', () => {
    const belt = toOpenAI(collections, { api: 'responses' });
    const tools = belt.tools as ResponsesFunctionTool[];
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining([
      'list_directory', 'find_files', 'search_files', 'read_file', 'create_file', 'write_file', 'edit_file', 'move_file', 'delete_file',
      'run_shell', 'job_output', 'job_stop', 'job_list', 'task_add', 'task_update', 'task_remove', 'task_get',
      'get_date_time_after', 'get_day_of_week', 'get_days_between', 'ask_user_question', 'query_image',
      'note_write', 'note_read', 'note_list', 'log_append', 'log_read',
      'gh_list_issues', 'gh_view_issue', 'gh_list_prs', 'gh_view_pr', 'gh_diff', 'gh_create_pr', 'gh_comment',
    ]));
    const problems = tools.flatMap((tool) => [
      ...(tool.strict ? [] : [`${tool.name}: not strict`]),
      ...strictViolations(tool.parameters).map((problem) => `${tool.name} ${problem}`),
    ]);
    expect(problems).toEqual([]);
    for (const tool of tools) {
      expect(toStrictJsonSchema(tool.parameters as never), tool.name).toEqual(tool.parameters);
    }
  });

  it('states the default of every optional field that has one', () => {
    const belt = toOpenAI(collections, { api: 'responses' });
    const runShell = (belt.tools as ResponsesFunctionTool[]).find((tool) => tool.name === 'run_shell')!;
    const properties = runShell.parameters.properties as Record<string, { description?: string; anyOf?: unknown[] }>;
    expect(properties.run_in_background.anyOf).toContainEqual({ type: 'null' });
    for (const [name, property] of Object.entries(properties)) {
      if (name === 'command') continue;
      expect(property.description, name).toMatch(/Optional: send null (for the default, .+|to leave it out)\.$/);
    }
  });

  it('builds read-only file specs the same way', () => {
    const belt = toOpenAI([createReadOnlyFileTools({ workspace: new Workspace(root) })], { api: 'chat' });
    expect(belt.tools.map((tool) => [tool.function.name, tool.function.strict, strictViolations(tool.function.parameters)])).toEqual([
      ['list_directory', true, []], ['find_files', true, []], ['search_files', true, []], ['read_file', true, []],
    ]);
  });
});
