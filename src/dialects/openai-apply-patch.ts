import { z } from 'zod';
import { parseCreateDiff, parseUpdateDiff, type PatchOperation } from '../collections/files/apply-patch/parse.js';
import { APPLY_PATCH_DESCRIPTION, createPatchTool } from '../collections/files/apply-patch/tool.js';
import type { WriteToolsContext } from '../collections/files/guard/write-guards.js';

const operationInput = z.object({
  operation: z.discriminatedUnion('type', [
    z.object({ type: z.literal('create_file'), path: z.string(), diff: z.string() }),
    z.object({ type: z.literal('update_file'), path: z.string(), diff: z.string() }),
    z.object({ type: z.literal('delete_file'), path: z.string() }),
  ]).describe('One file operation of the Responses API apply_patch tool.'),
  // The AI SDK's OpenAI provider passes the item's call id along with the operation; it names
  // the call, which the adapter already knows, so it is taken and not used.
  callId: z.string().optional(),
});

/** The native operation of an `apply_patch_call` item. */
export type NativeApplyPatchOperation = z.output<typeof operationInput>['operation'];

/**
 * The Responses API's own `apply_patch` (`{ type: 'apply_patch' }` in the request), whose
 * `apply_patch_call` items carry one file operation each: `create_file` (a diff of `+`
 * lines), `update_file` (V4A chunks without the envelope) or `delete_file`. Its input is
 * `{ operation }`; it runs through the same writer, policy and approval rule as the
 * `apply_patch` function tool.
 */
export function createNativeApplyPatchTool(context: WriteToolsContext) {
  return createPatchTool(context, {
    name: 'apply_patch',
    description: APPLY_PATCH_DESCRIPTION,
    input: operationInput,
    operationsOf: (input) => [fromNativeOperation(input.operation)],
  });
}

/** One native operation as a patch operation. @throws {ToolError} for a diff that is not V4A. */
export function fromNativeOperation(operation: NativeApplyPatchOperation): PatchOperation {
  switch (operation.type) {
    case 'create_file':
      return { type: 'add', path: operation.path, lines: parseCreateDiff(operation.diff, operation.path) };
    case 'update_file':
      return { type: 'update', path: operation.path, chunks: parseUpdateDiff(operation.diff, operation.path) };
    case 'delete_file':
      return { type: 'delete', path: operation.path };
  }
}
