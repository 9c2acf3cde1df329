import type { ToolCollection, ToolDefinition } from '../../tool.js';
import { createFindFilesTool } from './find-files.js';
import { fileToolsInPlace } from '../../workspace/in-place.js';
import { runToolsInPlace, stepOptions } from './in-box/in-place-tools.js';
import { createListDirectoryTool } from './list-directory.js';
import { READ_TOOLS_INSTRUCTIONS } from './read-descriptions.js';
import { createReadFileTool } from './read-file.js';
import { locateRipgrep } from './search/ripgrep.js';
import { prepareRipgrepHost } from './search/ripgrep-process.js';
import { createSearchFilesTool } from './search-files.js';
import { validateReadToolsOptions, type ReadToolsOptions } from './read-options.js';

/**
 * The four reading tools, in this order: `list_directory`, `find_files`, `search_files`,
 * `read_file`. Use {@link createReadOnlyFileTools} for a ready collection; this is the
 * building block `createFileTools` adds the writing tools to.
 */
export function createReadTools(options: ReadToolsOptions): ToolDefinition<any>[] {
  const resolved = validateReadToolsOptions(options);
  // The ripgrep host is forked now, while the process is small (see ripgrep-process.ts).
  if (resolved.ripgrep !== false && resolved.workspace.capabilities.readsLocalDisk) void locateRipgrep(resolved.ripgrep).then((program) => program !== undefined && prepareRipgrepHost());
  return [
    createListDirectoryTool(resolved),
    createFindFilesTool(resolved),
    createSearchFilesTool(resolved),
    createReadFileTool(resolved),
  ];
}

/**
 * A `files` collection with only the reading tools: give it to an agent that must look at a
 * workspace but never change it. Nothing in it asks for approval.
 *
 * @example
 * const files = createReadOnlyFileTools({ workspace: new Workspace('/path/to/repo') });
 */
export function createReadOnlyFileTools(options: ReadToolsOptions): ToolCollection {
  const tools = createReadTools(options);
  // A workspace that runs the file tools next to its files (a remote box) gets each call as one step there.
  const runner = fileToolsInPlace(options.workspace);
  return { name: 'files', tools: runner === undefined ? tools : runToolsInPlace(tools, stepOptions(options), options.workspace, runner), instructions: READ_TOOLS_INSTRUCTIONS };
}
