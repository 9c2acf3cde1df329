import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTool, type RunToolResult } from '../../../run-tool.js';
import { createSession, type Session } from '../../../session.js';
import type { ToolDefinition } from '../../../tool.js';
import { Workspace } from '../../../workspace/workspace.js';
// Local, or remote under bubblewrap when test/remote runs these suites again.
import { workspaceForTest } from '../../../../test/remote/test-workspace.js';
import { createReadFileTool } from '../read-file.js';
import { validateReadToolsOptions } from '../read-options.js';
import { createCreateFileTool } from '../create-file.js';
import { createDeleteFileTool } from '../delete-file.js';
import { createEditFileTool } from '../edit-file.js';
import { createMoveFileTool } from '../move-file.js';
import { createWriteFileTool } from '../write-file.js';
import { createFileTools } from '../../../dialects/file-tools.js';
import type { WriteToolsContext } from '../guard/write-guards.js';

/** A real temporary folder with a workspace on it, the file tools, and a session. */
export interface WriteKit {
  /** The temporary folder that holds the workspace (`root`) and a sibling `outside/`. */
  readonly base: string;
  readonly root: string;
  readonly outside: string;
  readonly workspace: Workspace;
  readonly session: Session;
  readonly tools: Record<'read_file' | 'create_file' | 'write_file' | 'edit_file' | 'move_file' | 'delete_file', ToolDefinition<any>>;
  /** Runs a tool through runTool with `mode: 'auto'` (approval is tested on its own). */
  run(name: keyof WriteKit['tools'], input: Record<string, unknown>, session?: Session): Promise<RunToolResult>;
  /** read_file through runTool: a whole read, or a page with start/end lines. */
  read(file: string, lines?: { start_line?: number; end_line?: number }, session?: Session): Promise<RunToolResult>;
  /** Writes a file under the root directly (bytes or text), making parents. */
  put(file: string, content: string | Uint8Array): Promise<string>;
  /** The bytes of a file under the root. */
  bytes(file: string): Promise<Buffer>;
  text(file: string): Promise<string>;
  cleanup(): Promise<void>;
}

/** Makes a {@link WriteKit}; pass a workspace subclass factory to inject a race. */
export async function makeWriteKit(
  options: { keepBackups?: boolean; workspace?: (root: string) => Workspace } = {},
): Promise<WriteKit> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-write-')));
  const root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  await fs.mkdir(root);
  await fs.mkdir(outside);
  const workspace = options.workspace?.(root) ?? (await workspaceForTest(root));
  const context: WriteToolsContext = { workspace, keepBackups: options.keepBackups ?? false, maxLineLength: 2_000 };
  const readOptions = validateReadToolsOptions({ workspace });
  // A workspace whose box runs the file tools gets the collection's tools, as users do.
  const collection = workspace.capabilities.runsFileToolsInPlace ? createFileTools({ workspace, keepBackups: context.keepBackups, ripgrep: false }) : undefined;
  const pick = (name: keyof WriteKit['tools']) => collection!.tools.find((tool) => tool.name === name)!;
  const tools = collection === undefined
    ? {
        read_file: createReadFileTool(readOptions),
        create_file: createCreateFileTool(context),
        write_file: createWriteFileTool(context),
        edit_file: createEditFileTool(context),
        move_file: createMoveFileTool(context),
        delete_file: createDeleteFileTool(context),
      }
    : { read_file: pick('read_file'), create_file: pick('create_file'), write_file: pick('write_file'), edit_file: pick('edit_file'), move_file: pick('move_file'), delete_file: pick('delete_file') };
  const session = createSession();
  const kit: WriteKit = {
    base,
    root,
    outside,
    workspace,
    session,
    tools,
    run: (name, input, other) => runTool(tools[name], input, { session: other ?? session, mode: 'auto' }),
    read: (file, lines = {}, other) => runTool(tools.read_file, { path: file, ...lines }, { session: other ?? session }),
    put: async (file, content) => {
      const absolute = path.join(root, file);
      await fs.mkdir(path.dirname(absolute), { recursive: true });
      await fs.writeFile(absolute, content);
      return absolute;
    },
    bytes: (file) => fs.readFile(path.join(root, file)),
    text: (file) => fs.readFile(path.join(root, file), 'utf8'),
    cleanup: async () => {
      await workspace.close();
      await fs.rm(base, { recursive: true, force: true });
    },
  };
  return kit;
}

/** Every file under a folder (recursively), relative, sorted: to show that nothing else was written. */
export async function listTree(folder: string): Promise<string[]> {
  const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}
