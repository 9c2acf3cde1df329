import { ToolMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { DynamicStructuredTool } from '@langchain/core/tools';
import type { ToolDefinition, ToolResult } from '../../src/index.js';

/** Runs one call of a core tool with the raw arguments the model sent. */
export type CallRunner = (args: unknown, toolCallId: string, config: RunnableConfig | undefined) => Promise<ToolResult>;

type ToolCallConfig = RunnableConfig & { toolCall?: { id?: string; args?: unknown } };

/**
 * A core tool as a LangChain StructuredTool. Its Zod schema goes to the model as it is, its
 * `responseFormat` is `content_and_artifact`: the model reads the result's `text` (and images),
 * the ToolMessage's `artifact` holds its `data`. A failed call comes back as a ToolMessage with
 * `status: 'error'`. The core gets the model's arguments as sent, never LangChain's parse of
 * them: it repairs what it can (`file_path` for `path`, `"10"` for 10) and answers the rest
 * with the fix instead of LangChain's exception, so a `ToolNode` never has to catch anything.
 */
export class ToolbeltStructuredTool extends DynamicStructuredTool<any, any, any, any> {
  /** The core tool this wraps. */
  readonly definition: ToolDefinition<any>;

  constructor(definition: ToolDefinition<any>, run: CallRunner) {
    super({
      name: definition.name,
      description: definition.description,
      schema: definition.input,
      responseFormat: 'content_and_artifact',
      func: async (input: unknown, _runManager: unknown, config?: ToolCallConfig) => {
        const toolCallId = config?.toolCall?.id ?? '';
        // The model's own arguments: the core parses them once, with its messages and defaults.
        const result = await run(config?.toolCall?.args ?? input, toolCallId, config);
        return toContentAndArtifact(definition.name, result, toolCallId);
      },
    });
    this.definition = definition;
  }

  /**
   * Hands the model's own arguments to the core, which repairs and parses them once.
   * LangChain's parse would drop keys the schema does not know without a word and refuse
   * `"10"` for a number before the core could map, coerce or refuse them with the fix; so
   * arguments the schema takes go through LangChain's call (callbacks, tracing) with the raw
   * arguments beside them, and any others straight to the core.
   */
  override async call(arg: any, configArg?: any, tags?: string[]): Promise<any> {
    const args = isToolCall(arg) ? arg.args : arg;
    const config = (Array.isArray(configArg) ? { callbacks: configArg } : configArg) as ToolCallConfig | undefined;
    const toolCallId = (isToolCall(arg) ? arg.id : undefined) ?? config?.toolCall?.id;
    const withArgs = { ...config, toolCall: { ...config?.toolCall, id: toolCallId, args } } as RunnableConfig;
    if (this.definition.input.safeParse(args ?? {}).success) return super.call(arg, withArgs, tags);
    const [content, artifact] = (await this.func(args, undefined, withArgs)) as [unknown, unknown];
    // What LangChain's call returns for a success: a ToolMessage when the call has an id.
    if (ToolMessage.isInstance(content) || toolCallId === undefined || toolCallId === '') return content;
    return new ToolMessage({ content: content as string, artifact, tool_call_id: toolCallId, name: this.name, status: 'success' });
  }
}

/** A result as the `[content, artifact]` pair LangChain expects; errors as a ready ToolMessage. */
function toContentAndArtifact(name: string, result: ToolResult, toolCallId: string): [unknown, unknown] {
  const content =
    result.images === undefined
      ? result.text
      : [
          { type: 'text', text: result.text },
          ...result.images.map((image) => ({ type: 'image', mimeType: image.mediaType, data: image.data })),
        ];
  if (!result.isError) return [content, result.data];
  // LangChain marks every content it wraps as a success; an error needs its own ToolMessage.
  if (toolCallId === '') return [result.text, result.data];
  return [new ToolMessage({ content: content as string, artifact: result.data, tool_call_id: toolCallId, name, status: 'error' }), undefined];
}

function isToolCall(value: unknown): value is { id?: string; args: unknown; type: 'tool_call' } {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'tool_call' && 'args' in value;
}
