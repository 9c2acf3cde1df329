import type { ToolAnnotations } from '@modelcontextprotocol/server';
import type { ToolDefinition, ToolKind } from '../../src/index.js';

const READ_ONLY_KINDS: readonly ToolKind[] = ['read', 'search', 'fetch'];
// `other` says nothing about what a tool does, so it gets MCP's own assumption: the worst.
const DESTRUCTIVE_KINDS: readonly ToolKind[] = ['edit', 'delete', 'move', 'execute', 'other'];
const OPEN_WORLD_KINDS: readonly ToolKind[] = ['execute', 'fetch', 'other'];

/**
 * MCP hints from what a tool does: its declared `effects`, and for anything left out, its
 * kind. Every hint is stated, because MCP assumes the worst (destructive, open world, not
 * idempotent) for a tool that says nothing. Reading, searching and fetching change nothing;
 * editing, deleting, moving and running commands may destroy data; running commands and
 * fetching reach outside the workspace. A read-only tool is idempotent and never
 * destructive; deleting twice deletes nothing more.
 */
export function toolAnnotations(tool: ToolDefinition<any>): ToolAnnotations {
  const effects = tool.effects ?? {};
  const readOnly = effects.readOnly ?? READ_ONLY_KINDS.includes(tool.kind);
  return {
    readOnlyHint: readOnly,
    destructiveHint: effects.destructive ?? (!readOnly && DESTRUCTIVE_KINDS.includes(tool.kind)),
    idempotentHint: effects.idempotent ?? (readOnly || tool.kind === 'delete'),
    openWorldHint: effects.openWorld ?? OPEN_WORLD_KINDS.includes(tool.kind),
  };
}
