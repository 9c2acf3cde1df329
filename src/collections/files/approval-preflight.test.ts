import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../approval.js';
import { runTool } from '../../run-tool.js';
import { createSession } from '../../session.js';
import { Workspace } from '../../workspace/workspace.js';
import { createFileTools } from '../../dialects/file-tools.js';

/**
 * A person is asked only about a call that can succeed: `write_file` and `delete_file` on a
 * path that does not exist, or on a folder, are answered before anyone is asked ("Overwrite
 * out.txt…" for a file that is not there would be a question with no good answer).
 */
let root: string;
let files: ReturnType<typeof createFileTools>;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-preflight-')));
  await fs.mkdir(path.join(root, 'src'));
  await fs.writeFile(path.join(root, 'kept.txt'), 'kept\n');
  files = createFileTools({ workspace: new Workspace(root) });
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function tool(name: string) {
  return files.tools.find((candidate) => candidate.name === name)!;
}

async function callAsking(name: string, input: Record<string, unknown>) {
  const asked: ApprovalRequest[] = [];
  const result = await runTool(tool(name), input, {
    session: createSession(),
    approve: (request) => {
      asked.push(request);
      return 'approve';
    },
  });
  return { result, asked: asked.map((request) => request.description) };
}

describe('calls that cannot succeed are refused before anyone is asked', () => {
  it('write_file on a file that does not exist', async () => {
    expect(await callAsking('write_file', { path: 'out.txt', content: 'new\n' })).toEqual({
      result: { text: '`out.txt` does not exist; write_file only replaces existing files. Use create_file to make a new one.', isError: true },
      asked: [],
    });
    await expect(fs.access(path.join(root, 'out.txt'))).rejects.toThrow();
  });

  it('write_file on a folder', async () => {
    expect(await callAsking('write_file', { path: 'src', content: 'new\n' })).toEqual({
      result: { text: '`src` is a folder, not a file. Use list_directory to see what it holds.', isError: true },
      asked: [],
    });
  });

  it('delete_file on a file that does not exist, and on a folder', async () => {
    expect(await callAsking('delete_file', { path: 'gone.txt' })).toEqual({
      result: { text: '`gone.txt` does not exist, so nothing was deleted. Check the path with find_files or list_directory.', isError: true },
      asked: [],
    });
    expect(await callAsking('delete_file', { path: 'src' })).toEqual({
      result: {
        text: '`src` is a folder; delete_file deletes only files and symbolic links, so nothing was deleted. Delete the files in it one by one, or ask the user.',
        isError: true,
      },
      asked: [],
    });
    expect((await fs.stat(path.join(root, 'src'))).isDirectory()).toBe(true);
  });

  it('a call that can succeed is still asked about', async () => {
    const { result, asked } = await callAsking('delete_file', { path: 'kept.txt' });
    expect(asked).toEqual(['Delete kept.txt']);
    expect(result.isError).toBe(false);
  });
});
