import { existsSync, readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTool, type RunToolResult } from '../../../run-tool.js';
import { createSession, type Session } from '../../../session.js';
import type { ToolCollection, ToolDefinition } from '../../../tool.js';
import { Workspace } from '../../../workspace/workspace.js';
// Local, or remote under bubblewrap when test/remote runs these suites again.
import { workspaceForTest } from '../../../../test/remote/test-workspace.js';
import { createShellTools } from '../index.js';
import type { ShellToolsOptions } from '../options.js';

/** A fresh temporary workspace. */
export async function temporaryWorkspace(prefix = 'shell-'): Promise<Workspace> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), `toolbelt-${prefix}`));
  return workspaceForTest(root);
}

/** The run_shell tool of a collection. */
export function runShellOf(collection: ToolCollection): ToolDefinition<any> {
  return collection.tools.find((tool) => tool.name === 'run_shell')!;
}

/** A shell on a fresh workspace and a way to call it with `mode: 'auto'`. */
export async function shellHarness(options: Omit<ShellToolsOptions, 'workspace'> = {}): Promise<{
  workspace: Workspace;
  session: Session;
  tool: ToolDefinition<any>;
  run: (input: Record<string, unknown>, extra?: { signal?: AbortSignal }) => Promise<RunToolResult>;
}> {
  const workspace = await temporaryWorkspace();
  const tool = runShellOf(createShellTools({ workspace, ...options }));
  const session = createSession();
  return {
    workspace,
    session,
    tool,
    run: (input, extra = {}) => runTool(tool, input, { session, mode: 'auto', ...extra }),
  };
}

/** True while a process with this PID exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  try {
    const text = readFileSync(stat, 'utf8');
    const state = text.slice(text.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Waits until `check` is true or `timeoutMs` passes; returns the last answer. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 3_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** PIDs written one per line into a file by a test command. */
export async function readPids(file: string): Promise<number[]> {
  const text = await fs.readFile(file, 'utf8');
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^\d+$/.test(line))
    .map(Number);
}
