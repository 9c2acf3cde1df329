import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTool, type RunToolResult } from '../../../run-tool.js';
import { createSession, type Session } from '../../../session.js';
import type { ToolDefinition } from '../../../tool.js';
import { Workspace } from '../../../workspace/workspace.js';
// Local, or remote under bubblewrap when test/remote runs these suites again.
import { workspaceForTest } from '../../../../test/remote/test-workspace.js';
import { createReadOnlyFileTools } from '../read-tools.js';
import type { ReadToolsOptions } from '../read-options.js';
import { expectSameAnswer, twinEngines } from './engine-twin.js';

type ReadToolName = 'list_directory' | 'find_files' | 'search_files' | 'read_file';

/** A real temporary folder with a workspace on it (`root`), a sibling `outside/`, the reading tools and a session. */
export interface ReadKit {
  readonly base: string;
  readonly root: string;
  readonly outside: string;
  readonly workspace: Workspace;
  readonly session: Session;
  readonly tools: Record<ReadToolName, ToolDefinition<any>>;
  /** Runs a reading tool through runTool, the path every adapter takes. */
  run(name: ReadToolName, input: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<RunToolResult>;
  /** Writes a file under the root (making parents); returns its absolute path. */
  put(file: string, content: string | Uint8Array, mtime?: Date): Promise<string>;
  cleanup(): Promise<void>;
}

/**
 * Makes a {@link ReadKit}; `options` are passed to `createReadTools` beside the workspace.
 * ripgrep is off unless `options` turn it on, so replies do not depend on whether `rg` is
 * installed (its searched-file counts differ); `ripgrep.test.ts` runs the search with it, and
 * under `test/search-engines/` every search of a suite is run with it too (see `engine-twin.ts`).
 */
export async function makeReadKit(options: Omit<ReadToolsOptions, 'workspace'> = {}): Promise<ReadKit> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-read-')));
  const root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  await fs.mkdir(root);
  await fs.mkdir(outside);
  const workspace = await workspaceForTest(root);
  const session = createSession();
  // The collection's tools: on a remote workspace they run in its box, as users get them.
  const tools = Object.fromEntries(createReadOnlyFileTools({ workspace, ripgrep: false, ...options }).tools.map((tool) => [tool.name, tool])) as ReadKit['tools'];
  // A test that picks the engine itself is not run on the other.
  const twin = twinEngines() && options.ripgrep === undefined ? createReadOnlyFileTools({ workspace, ...options, ripgrep: true, ripgrepAfterFiles: 0 }).tools.find((tool) => tool.name === 'search_files') : undefined;
  return {
    base,
    root,
    outside,
    workspace,
    session,
    tools,
    async run(name, input, runOptions = {}) {
      const result = await runTool(tools[name], input, { session, ...(runOptions.signal ? { signal: runOptions.signal } : {}) });
      if (twin !== undefined && name === 'search_files' && runOptions.signal === undefined) expectSameAnswer(input, result, await runTool(twin, input, { session }));
      return result;
    },
    async put(file, content, mtime) {
      const absolute = path.join(root, file);
      await fs.mkdir(path.dirname(absolute), { recursive: true });
      await fs.writeFile(absolute, content);
      if (mtime !== undefined) await fs.utimes(absolute, mtime, mtime);
      return absolute;
    },
    cleanup: async () => {
      await workspace.close();
      await fs.rm(base, { recursive: true, force: true });
    },
  };
}
