import type { Session } from '../../session.js';
import { createNativeApplyPatchTool } from '../../dialects/openai-apply-patch.js';
import type { NativeFileTools } from '../../dialects/native-tools.js';
import { createTextEditorTool } from '../../dialects/text-editor.js';
import type { ToolCollection, ToolDefinition } from '../../tool.js';
import { createApplyPatchTool } from './apply-patch/tool.js';
import { createCreateFileTool } from './create-file.js';
import { createDeleteFileTool } from './delete-file.js';
import { createEditFileTool } from './edit-file.js';
import { fileToolsInPlace, runToolInPlace, runToolsInPlace, stepOptions, undoInPlace } from './in-box/in-place-tools.js';
import { createMoveFileTool } from './move-file.js';
import { READ_TOOLS_INSTRUCTIONS } from './read-descriptions.js';
import { createReadTools, validateReadToolsOptions, type ReadToolsOptions } from './read-tools.js';
import { beginUndoUnit, undoLastUnit, type UndoResult } from './guard/undo.js';
import { WRITE_TOOLS_INSTRUCTIONS } from './write-descriptions.js';
import { createWriteFileTool } from './write-file.js';
import type { WriteToolsContext } from './guard/write-guards.js';

/** Options of {@link createFileTools}: those of the reading tools, plus backups. */
export interface FileToolsOptions extends ReadToolsOptions {
  /**
   * Copy each file to `.toolbelt/backups/` before `edit_file`, `write_file` or `delete_file`
   * changes it, and keep an undo record in the session, so the host can take a prompt's
   * changes back with {@link FileToolCollection.undo}. When a copy cannot be made (say
   * `.toolbelt` is a file, or a link out of the workspace) the file is not changed and the
   * reply says why. Copies older than a week, or beyond the newest 100, are removed.
   * @default false
   */
  readonly keepBackups?: boolean;
  /**
   * Add `apply_patch`: one call changes several files at once with a V4A patch (the format
   * OpenAI's coding models are trained on), all or nothing, under the same rules as the other
   * writing tools. Any model can use it; see `src/dialects/README.md`.
   * @default false
   */
  readonly applyPatch?: boolean;
}

/** The `files` collection with the host calls for undo. */
export type FileToolCollection = ToolCollection & {
  /**
   * These tools in the shapes providers train their models on (Anthropic's text editor, the
   * Responses API's `apply_patch`), run by this collection's rules. Adapters use them for
   * their `native: true` option; see `src/dialects/README.md`.
   */
  readonly native: NativeFileTools;
  /**
   * Starts a new undo unit: call it before each prompt you send, so {@link undo} takes back one
   * prompt's changes. A host that never calls it has one unit holding every change. Does
   * nothing without `keepBackups`, and nothing when the current unit has no change yet.
   */
  beginUndoUnit(session: Session): void;
  /**
   * Takes back the file changes of the newest unit that has any, byte for byte: edited and
   * overwritten files get their earlier content (line endings and byte order mark included),
   * created files are removed, moved ones moved back, deleted files and links put back. A
   * file that changed since the tool left it is skipped and named; the others are restored.
   * Call it between runs, and put the result's `text` in front of the next prompt: the model
   * still believes its changes are there.
   *
   * @throws {TypeError} when the collection was made without `keepBackups`.
   */
  undo(session: Session): Promise<UndoResult>;
};

/**
 * The file tools: `list_directory`, `find_files`, `search_files`, `read_file`, `create_file`,
 * `write_file`, `edit_file`, `move_file` and `delete_file`, jailed to the workspace.
 * `write_file` and `delete_file` ask for approval by default; the others do not (hosts
 * override per tool). Options are checked here, so a wrong one fails at once, naming it.
 *
 * @example
 * const files = createFileTools({ workspace: new Workspace('/path/to/repo'), keepBackups: true });
 * files.beginUndoUnit(session);          // before each prompt
 * // … run the agent …
 * const undone = await files.undo(session);
 * console.log(undone.text);
 */
export function createFileTools(options: FileToolsOptions): FileToolCollection {
  const resolved = validateFileToolsOptions(options);
  const context: WriteToolsContext = { workspace: resolved.workspace, keepBackups: resolved.keepBackups, maxLineLength: resolved.maxLineLength };
  const localTools = [
    ...createReadTools(options),
    createCreateFileTool(context),
    createWriteFileTool(context),
    createEditFileTool(context),
    createMoveFileTool(context),
    createDeleteFileTool(context),
    ...(resolved.applyPatch ? [createApplyPatchTool(context)] : []),
  ];
  // A workspace that runs the file tools next to its files (a remote box) gets each call as one step there.
  const runner = fileToolsInPlace(resolved.workspace);
  const tools = runner === undefined ? localTools : runToolsInPlace(localTools, stepOptions(options), resolved.workspace, runner);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  let nativeApplyPatch: ToolDefinition<any> | undefined;
  return {
    name: 'files',
    tools,
    native: {
      textEditor: (editorOptions) => {
        const editor = createTextEditorTool(context, byName, editorOptions);
        return runner === undefined ? editor : runToolInPlace(editor, stepOptions(options), resolved.workspace, runner, { tool: 'textEditor', ...(editorOptions === undefined ? {} : { options: { ...editorOptions } }) });
      },
      get applyPatch() {
        const patch = () => createNativeApplyPatchTool(context);
        return (nativeApplyPatch ??= runner === undefined ? patch() : runToolInPlace(patch(), stepOptions(options), resolved.workspace, runner, { tool: 'applyPatch' }));
      },
    },
    instructions: `${READ_TOOLS_INSTRUCTIONS}\n\n${WRITE_TOOLS_INSTRUCTIONS}`,
    beginUndoUnit(session) {
      if (context.keepBackups) beginUndoUnit(session, context.workspace);
    },
    async undo(session) {
      if (!context.keepBackups) {
        throw new TypeError('Undo needs backups: create the file tools with the `keepBackups` option set to true (createFileTools({ workspace, keepBackups: true })).');
      }
      return runner === undefined ? undoLastUnit(session, context.workspace) : undoInPlace(session, context.workspace, runner, stepOptions(options));
    },
  };
}

/** Checks the options of {@link createFileTools} and fills in the defaults. */
function validateFileToolsOptions(options: FileToolsOptions) {
  const read = validateReadToolsOptions(options);
  const keepBackups = options.keepBackups ?? false;
  if (typeof keepBackups !== 'boolean') {
    throw new TypeError(`Expected the \`keepBackups\` option to be a boolean, got \`${String(keepBackups)}\` (${typeof keepBackups}).`);
  }
  const applyPatch = options.applyPatch ?? false;
  if (typeof applyPatch !== 'boolean') {
    throw new TypeError(`Expected the \`applyPatch\` option to be a boolean, got \`${String(applyPatch)}\` (${typeof applyPatch}).`);
  }
  return { ...read, keepBackups, applyPatch };
}

export type { UndoneFile, SkippedFile, UndoResult } from './guard/undo.js';
