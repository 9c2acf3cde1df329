import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition, ToolResult } from '../../src/index.js';
import { toolAnnotations } from './annotations.js';
import { isLegacyProtocol, toolJsonSchema } from './json-schema.js';

/**
 * Describes tools for `tools/list`, in the order given, each schema converted once per
 * dialect (the conversion is the slow part of a listing, and the answer never changes).
 */
export class ToolListing {
  readonly #cache = new Map<string, Tool>();

  /** The listing entry of one tool for a client of this protocol version. */
  describe(tool: ToolDefinition<any>, protocolVersion: string): Tool {
    const key = `${isLegacyProtocol(protocolVersion) ? 'draft-7' : '2020-12'}:${tool.name}`;
    let entry = this.#cache.get(key);
    if (entry === undefined) {
      entry = {
        name: tool.name,
        description: tool.description,
        inputSchema: toolJsonSchema(tool.input, protocolVersion, 'input') as Tool['inputSchema'],
        ...(tool.output === undefined ? {} : { outputSchema: toolJsonSchema(tool.output, protocolVersion, 'output') as Tool['outputSchema'] }),
        annotations: toolAnnotations(tool),
      };
      this.#cache.set(key, entry);
    }
    return entry;
  }
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
