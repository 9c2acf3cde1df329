import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { ToolDefinition, ToolResult } from '../../src/index.js';
import { toolAnnotations } from './annotations.js';
import { isLegacyProtocol, toolJsonSchema } from './json-schema.js';

// Tool definitions are frozen, so a listing entry never changes: one per tool and dialect,
// shared by every server (each HTTP session has its own server, the tools are the same).
const entries = new WeakMap<ToolDefinition<any>, Map<string, Tool>>();

/**
 * The `tools/list` entries of the tools, in the order given, for a client of this protocol
 * version. Converting a schema takes a millisecond or more, so the first listing yields to the
 * event loop before each conversion instead of blocking it for all of them at once.
 */
export async function describeTools(tools: readonly ToolDefinition<any>[], protocolVersion: string): Promise<Tool[]> {
  const dialect = isLegacyProtocol(protocolVersion) ? 'draft-7' : '2020-12';
  const described: Tool[] = [];
  for (const tool of tools) {
    let byDialect = entries.get(tool);
    if (byDialect === undefined) entries.set(tool, (byDialect = new Map()));
    let entry = byDialect.get(dialect);
    if (entry === undefined) {
      await new Promise((resolve) => setImmediate(resolve));
      entry = {
        name: tool.name,
        description: tool.description,
        inputSchema: toolJsonSchema(tool.input, protocolVersion, 'input') as Tool['inputSchema'],
        ...(tool.output === undefined ? {} : { outputSchema: toolJsonSchema(tool.output, protocolVersion, 'output') as Tool['outputSchema'] }),
        annotations: toolAnnotations(tool),
      };
      byDialect.set(dialect, entry);
    }
    described.push(entry);
  }
  return described;
}

/**
 * A result as MCP content: the text, then any images; `isError` for failures. A success of
 * a tool with an `output` schema also carries its `data` as `structuredContent` (parsed by
 * that schema, so it holds exactly what the listed `outputSchema` allows). Data that does
 * not match is a bug in the tool: the text still reaches the model, marked as an error,
 * because a client that checks `structuredContent` would reject the result outright.
 */
export function toCallToolResult(result: ToolResult, tool?: ToolDefinition<any>): CallToolResult {
  const content: CallToolResult['content'] = [
    { type: 'text', text: result.text },
    ...(result.images ?? []).map((image) => ({ type: 'image' as const, data: image.data, mimeType: image.mediaType })),
  ];
  if (result.isError) return { content, isError: true };
  if (tool?.output === undefined) return { content };
  const parsed = tool.output.safeParse(result.data);
  if (parsed.success) return { content, structuredContent: parsed.data as Record<string, unknown> };
  const problem = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'data'}: ${issue.message}`).join('; ');
  content.push({ type: 'text', text: `(${tool.name} ran, but its structured result does not match its output schema (${problem}). This is a bug in agent-toolbelt; the text above is the result.)` });
  return { content, isError: true };
}
