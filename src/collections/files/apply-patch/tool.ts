import { z } from 'zod';
import { ToolError } from '../../../errors/tool-error.js';
import { defineTool, type ToolDefinition, type ToolKind } from '../../../tool.js';
import { writePolicy, type WriteToolsContext } from '../guard/write-guards.js';
import { applyPatchOperations, patchPolicyPaths } from './apply.js';
import { parsePatch, type PatchOperation } from './parse.js';
import type { InputAliases } from '../../../model-inputs/aliases.js';

/** The description of the `apply_patch` function tool. */
export const APPLY_PATCH_DESCRIPTION = [
  'Applies a patch in the V4A format to one or more files, all or nothing: if any part does not fit, no file is changed and the reply says which part and why.',
  'Format: `*** Begin Patch`, then for each file `*** Add File: path` (every line of the new file prefixed with `+`), `*** Delete File: path`, or `*** Update File: path` (optionally followed by `*** Move to: new/path`) with chunks of changes, then `*** End Patch`.',
  'A chunk starts with `@@` (or `@@ ` and a line of the file above the change, such as its function, to say where), then lines prefixed with a space (unchanged context, about 3 lines before and after), `-` (removed) or `+` (added).',
  'Context and removed lines must match the file exactly, whitespace included, and fit one place only: add context or an `@@` line until they do.',
  'Files you update must have been read in this session (read_file) and be unchanged since. Paths are relative to the workspace root.',
].join(' ');

/** The description of its one field. */
export const PATCH_FIELD_DESCRIPTION = 'The whole patch, from `*** Begin Patch` to `*** End Patch`.';

/** How a patch tool reads its input: the parsed file operations, or a ToolError for input that is not a patch. */
export type OperationsOf<Input> = (input: Input) => readonly PatchOperation[];

/** What {@link createPatchTool} builds a tool from. */
export interface PatchToolSpec<Schema extends z.ZodObject> {
  readonly name: string;
  readonly description: string;
  readonly input: Schema;
  readonly operationsOf: OperationsOf<z.output<Schema>>;
  /** Other harnesses' names for its fields. */
  readonly aliases?: InputAliases;
}

/**
 * A tool that applies file operations the way `apply_patch` does: the function tool with a
 * V4A `patch`, and the native Responses API `apply_patch` with one `operation` per call, are
 * both built here, so they share the policy (jail, private folder, read before write, size),
 * the approval rule and the all-or-nothing writing. The approval rule is the one of the tools
 * the patch stands for: a patch that deletes a file asks like `delete_file` and counts as a
 * `delete` for approval modes; adding, updating and moving files run like `create_file`,
 * `edit_file` and `move_file`.
 */
export function createPatchTool<Schema extends z.ZodObject>(context: WriteToolsContext, spec: PatchToolSpec<Schema>): ToolDefinition<Schema> {
  const operations = (input: z.output<Schema>): readonly PatchOperation[] | undefined => {
    try {
      return spec.operationsOf(input);
    } catch (error) {
      if (error instanceof ToolError) return undefined;
      throw error;
    }
  };
  const deletes = (input: z.output<Schema>) => operations(input)?.some((operation) => operation.type === 'delete') ?? false;
  const policy = writePolicy(context.workspace, (input: z.output<Schema>) => patchPolicyPaths(spec.operationsOf(input), spec.name));
  return defineTool({
    name: spec.name,
    description: spec.description,
    kind: 'edit',
    kindOf: (input): ToolKind => (deletes(input) ? 'delete' : 'edit'),
    input: spec.input,
    ...(spec.aliases === undefined ? {} : { aliases: spec.aliases }),
    needsApproval: (input) => deletes(input),
    async checkPolicy(input, { session }) {
      try {
        spec.operationsOf(input);
      } catch (error) {
        if (error instanceof ToolError) return error.message;
        throw error;
      }
      return policy(input, { session });
    },
    describeCall: (input) => describePatch(operations(input) ?? []),
    execute: (input, { session }) => applyPatchOperations(context, session, spec.operationsOf(input), spec.name),
  });
}

/**
 * Other harnesses' names for apply_patch's field: Codex's function tool takes the patch as
 * `input`, OpenCode's as `patchText`, both in this format.
 */
export const APPLY_PATCH_ALIASES: InputAliases = {
  input: 'patch', // Codex
  patch_text: 'patch', // OpenCode's patchText, in snake case
  patchText: 'patch', // OpenCode
};

/** `apply_patch`: a multi-file V4A patch in one field, for any model. Opt in with `createFileTools({ applyPatch: true })`. */
export function createApplyPatchTool(context: WriteToolsContext) {
  return createPatchTool(context, {
    name: 'apply_patch',
    description: APPLY_PATCH_DESCRIPTION,
    input: z.object({ patch: z.string().describe(PATCH_FIELD_DESCRIPTION) }),
    operationsOf: (input) => parsePatch(input.patch),
    aliases: APPLY_PATCH_ALIASES,
  });
}

/** The approval prompt: one line per file, then each file's part of the patch as the model wrote it. */
export function describePatch(operations: readonly PatchOperation[]): string {
  const lines = operations.map((operation) => {
    if (operation.type === 'add') return `Add ${operation.path} (${operation.lines.length} line${operation.lines.length === 1 ? '' : 's'})`;
    if (operation.type === 'delete') return `Delete ${operation.path}`;
    return `${operation.moveTo === undefined ? 'Update' : `Move to ${operation.moveTo} and update`} ${operation.path}`;
  });
  const diffs = operations.flatMap((operation) => {
    if (operation.type === 'delete') return [];
    if (operation.type === 'add') return [`--- /dev/null\n+++ ${operation.path}\n${operation.lines.map((line) => `+${line}`).join('\n')}`];
    if (operation.chunks.length === 0) return [];
    const body = operation.chunks
      .map((chunk) => [`@@${chunk.anchors.length > 0 ? ` ${chunk.anchors.join(' … ')}` : ''}`, ...chunk.lines.map((line) => `${line.kind}${line.text}`)].join('\n'))
      .join('\n');
    return [`--- ${operation.path}\n+++ ${operation.moveTo ?? operation.path}\n${body}`];
  });
  return [`Apply a patch to ${operations.length} file${operations.length === 1 ? '' : 's'}:`, ...lines.map((line) => `- ${line}`), ...diffs].join('\n');
}
