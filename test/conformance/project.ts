import { access, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { createFileTools, defineTool, Workspace, type ApprovalDecision, type ToolCollection } from '../../src/index.js';
import type { Approver, AskedApproval } from './driver.js';
import { workspaceForTest } from '../remote/test-workspace.js';

const folders: string[] = [];
const workspaces: Workspace[] = [];

/**
 * A real temp folder for one scenario: `project/` is the workspace (with `notes.txt` and
 * `todo.txt`), and `outside.txt` sits next to it, where no tool may reach.
 */
export async function createProject() {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolbelt-conformance-')));
  folders.push(base);
  const root = path.join(base, 'project');
  await mkdir(root);
  await writeFile(path.join(root, 'notes.txt'), 'alpha\nbeta\n');
  await writeFile(path.join(root, 'todo.txt'), 'buy milk\n');
  await writeFile(path.join(base, 'outside.txt'), 'untouched\n');
  // Local, or remote under bubblewrap when test/remote runs these scenarios again.
  const workspace = await workspaceForTest(root);
  workspaces.push(workspace);
  return {
    base,
    root,
    workspace,
    files: createFileTools({ workspace }),
    /** A file's text, by path relative to the workspace (`../outside.txt` reaches out on purpose). */
    read: (relative: string) => readFile(path.join(root, relative), 'utf8'),
    exists: (relative: string) => access(path.join(root, relative)).then(() => true, () => false),
  };
}

/** Removes every folder {@link createProject} made. */
export async function removeProjects(): Promise<void> {
  await Promise.all(workspaces.splice(0).map((workspace) => workspace.close()));
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
}

/** A person who gives the same answer every time and remembers what they were shown (the tool and the call's description). */
export function personAnswering(decision: ApprovalDecision): { approver: Approver; asked: AskedApproval[] } {
  const asked: AskedApproval[] = [];
  return { asked, approver: ({ toolName, description }) => (asked.push({ toolName, description }), decision) };
}

/** A custom collection whose one tool fails with a bug (a plain Error), as a host's own tool might. */
export const brokenTools: ToolCollection = {
  name: 'broken',
  tools: [
    defineTool({
      name: 'explode',
      description: 'Always fails.',
      kind: 'other',
      input: z.object({}),
      execute: () => {
        throw new Error('disk on fire');
      },
    }),
  ],
};
