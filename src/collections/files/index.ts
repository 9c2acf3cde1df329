import type { Session } from '../../session.js';
import type { ToolCollection, ToolDefinition } from '../../tool.js';
import type { NativeToolStep } from '../../workspace/in-place.js';
import { createApplyPatchTool } from './apply-patch/tool.js';
import { createCreateFileTool } from './create-file.js';
import { createDeleteFileTool } from './delete-file.js';
import { createEditFileTool } from './edit-file.js';
import { fileToolsInPlace } from '../../workspace/in-place.js';
import { runToolInPlace, runToolsInPlace, stepOptions, undoInPlace } from './in-box/in-place-tools.js';
import { createMoveFileTool } from './move-file.js';
import { READ_TOOLS_INSTRUCTIONS } from './read-descriptions.js';
import { createReadTools } from './read-tools.js';
import { validateReadToolsOptions, type ReadToolsOptions } from './read-options.js';
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

/** The options of Anthropic's text editor over a files collection (see `src/dialects/text-editor.ts`). */
export interface TextEditorOptions {
  /** `view` replies are cut at this many characters (the spec's `max_characters`). @default no cut beyond read_file's own */
  readonly maxCharacters?: number;
}

/** The provider-shaped tools a files collection carries, built on its own context (`files.native`). */
export interface NativeFileTools {
  /** Anthropic's text editor, `str_replace_based_edit_tool` (`text_editor_20250728`). */
  textEditor(options?: TextEditorOptions): ToolDefinition<any>;
  /** The Responses API's `apply_patch`, one file operation per `apply_patch_call`. */
  readonly applyPatch: ToolDefinition<any>;
}

/** The `files` collection with the host calls for undo, and the tools in providers' shapes. */
export type FileToolCollection = PlainFileToolCollection & {
  /**
   * These tools in the shapes providers train their models on (Anthropic's text editor, the
   * Responses API's `apply_patch`), run by this collection's rules. Adapters use them for
   * their `native: true` option; see `src/dialects/README.md`. The dialects build them
   * (`createFileTools` of the package is `src/dialects/file-tools.ts`).
   */
  readonly native: NativeFileTools;
};

/** The `files` collection with the host calls for undo: {@link FileToolCollection} without `native`. */
export type PlainFileToolCollection = ToolCollection & {
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
 * What the dialects build a collection's provider-shaped tools from: the writing tools'
 * context, the collection's own tools by name, and how a tool runs where the files are.
 */
export interface FileToolParts {
  readonly context: WriteToolsContext;
  readonly tools: ReadonlyMap<string, ToolDefinition<any>>;
  /** `tool` as the collection runs it: itself, or one step in the box of a remote workspace. */
  inPlace(tool: ToolDefinition<any>, step: NativeToolStep): ToolDefinition<any>;
}

const partsOf = new WeakMap<PlainFileToolCollection, FileToolParts>();

/** The parts of a collection made by {@link createPlainFileTools}. */
export function fileToolParts(collection: PlainFileToolCollection): FileToolParts {
  const parts = partsOf.get(collection);
  if (parts === undefined) throw new TypeError('Expected a files collection made by createFileTools.');
  return parts;
}

/**
 * The files collection without its provider-shaped tools: what `createFileTools` (in
 * `src/dialects/file-tools.ts`, the package's export) builds on and adds `native` to. Its
 * tools, options, approval defaults and undo are all of the collection's.
 */
export function createPlainFileTools(options: FileToolsOptions): PlainFileToolCollection {
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
  const collection: PlainFileToolCollection = {
    name: 'files',
    tools,
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
  partsOf.set(collection, {
    context,
    tools: new Map(tools.map((tool) => [tool.name, tool])),
    inPlace: (tool, step) => (runner === undefined ? tool : runToolInPlace(tool, stepOptions(options), resolved.workspace, runner, step)),
  });
  return collection;
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
