import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ApprovalRequest } from 'agent-toolbelt';
import { describe, expect, it } from 'vitest';
import { scriptedModel, toolResultsIn } from '../../adapters/ai-sdk/test-support/scripted-model.js';
import { runCodingAgent } from './agent.js';

async function project(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'toolbelt-generate-text-'));
  await writeFile(path.join(folder, 'README.md'), '# Demo\n\nTODO: describe it.\n');
  return folder;
}

const script = () =>
  scriptedModel([
    { toolCalls: [{ toolName: 'read_file', input: { path: 'README.md' }, id: 'c1' }] },
    { toolCalls: [{ toolName: 'task_add', input: { tasks: [{ subject: 'Describe the project in the README' }] }, id: 'c2' }] },
    { toolCalls: [{ toolName: 'edit_file', input: { path: 'README.md', old_string: 'TODO: describe it.', new_string: 'A demo project.' }, id: 'c3' }] },
    { toolCalls: [{ toolName: 'write_file', input: { path: 'README.md', content: '# Demo\n\nA small demo project.\n' }, id: 'c4' }] },
    (prompt) => ({ text: `Finished: ${String(toolResultsIn(prompt).c4!.value)}` }),
  ]);

describe('examples/generate-text', () => {
  it('runs the coding agent over a folder and asks before overwriting a file', async () => {
    const folder = await project();
    const asked: ApprovalRequest[] = [];
    const lines: string[] = [];
    const { model } = script();

    const text = await runCodingAgent({
      folder,
      prompt: 'Fill in the README.',
      model,
      approve: (request) => {
        asked.push(request);
        return 'approve';
      },
      log: (line) => lines.push(line),
    });

    expect(asked.map((request) => request.toolName)).toEqual(['write_file']);
    expect(asked[0]!.description).toBe('Overwrite README.md with 3 lines (30 characters)');
    expect(await readFile(path.join(folder, 'README.md'), 'utf8')).toBe('# Demo\n\nA small demo project.\n');
    expect(text).toMatch(/^Finished: Wrote `README.md`/);
    expect(lines.map((line) => line.split(':')[0])).toEqual(['• read_file', '• task_add', '• edit_file', '• write_file']);
  });

  it('leaves the file as the edit left it when the overwrite is denied, and the model is told', async () => {
    const folder = await project();
    const { model } = script();

    const text = await runCodingAgent({ folder, prompt: 'Fill in the README.', model, approve: () => ({ type: 'deny', reason: 'keep it short' }), log: () => {} });

    expect(await readFile(path.join(folder, 'README.md'), 'utf8')).toBe('# Demo\n\nA demo project.\n');
    expect(text).toBe(
      'Finished: Action denied by the user: write_file was not run. Do not retry the same call; ask or change approach. The user said: keep it short',
    );
  });
});
