/**
 * @module The files collection as the package exports it: the collection of
 * `collections/files/` with its provider-shaped tools (`files.native`) assembled here, in the
 * dialects, from the collection's own parts, so the collection knows nothing of the shapes
 * built on it.
 */
import { createPlainFileTools, fileToolParts, type FileToolCollection, type FileToolsOptions, type NativeFileTools } from '../collections/files/index.js';
import type { ToolDefinition } from '../tool.js';
import { createNativeApplyPatchTool } from './openai-apply-patch.js';
import { createTextEditorTool } from './text-editor.js';

/**
 * The file tools: `list_directory`, `find_files`, `search_files`, `read_file`, `create_file`,
 * `write_file`, `edit_file`, `move_file` and `delete_file`, jailed to the workspace.
 * `write_file` and `delete_file` ask for approval by default; the others do not (hosts
 * override per tool). Options are checked here, so a wrong one fails at once, naming it.
 * `files.native` holds the same tools in the shapes providers train their models on, built
 * on demand from the collection's own parts.
 *
 * @example
 * const files = createFileTools({ workspace: new Workspace('/path/to/repo'), keepBackups: true });
 * files.beginUndoUnit(session);          // before each prompt
 * // … run the agent …
 * const undone = await files.undo(session);
 * console.log(undone.text);
 */
export function createFileTools(options: FileToolsOptions): FileToolCollection {
  const files = createPlainFileTools(options);
  const { context, tools, inPlace } = fileToolParts(files);
  let applyPatch: ToolDefinition<any> | undefined;
  const native: NativeFileTools = {
    textEditor: (editorOptions) =>
      inPlace(createTextEditorTool(context, tools, editorOptions), { tool: 'textEditor', ...(editorOptions === undefined ? {} : { options: { ...editorOptions } }) }),
    // Made once and on first use: most hosts never offer it.
    get applyPatch() {
      return (applyPatch ??= inPlace(createNativeApplyPatchTool(context), { tool: 'applyPatch' }));
    },
  };
  return { ...files, native };
}
