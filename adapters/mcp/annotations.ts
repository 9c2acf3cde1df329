import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition, ToolKind } from '../../src/index.js';

const READ_ONLY_KINDS: readonly ToolKind[] = ['read', 'search'];
const DESTRUCTIVE_KINDS: readonly ToolKind[] = ['edit', 'delete', 'move'];
const OPEN_WORLD_KINDS: readonly ToolKind[] = ['execute', 'fetch'];

/**
 * MCP hints from a tool's kind. Every hint is stated, because MCP's defaults assume the worst
 * (destructive, open world) for a tool that says nothing: reading and searching are read-only;
 * editing, deleting and moving may destroy data; running commands, fetching and the GitHub
 * tools reach outside the workspace.
 */
export function toolAnnotations(tool: ToolDefinition<any>): ToolAnnotations {
  const readOnly = READ_ONLY_KINDS.includes(tool.kind);
  return {
    readOnlyHint: readOnly,
    destructiveHint: !readOnly && DESTRUCTIVE_KINDS.includes(tool.kind),
    openWorldHint: OPEN_WORLD_KINDS.includes(tool.kind) || tool.name.startsWith('gh_'),
  };
}
