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
 * `status: 'error'`; arguments that do not match the schema get the core's message naming the
 * field instead of LangChain's exception, so a `ToolNode` never has to catch anything.
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

  /** Sends arguments the schema refuses to the core, which answers with an error result naming the field. */
  override async call(arg: any, configArg?: any, tags?: string[]): Promise<any> {
    const args = isToolCall(arg) ? arg.args : arg;
    if (this.definition.input.safeParse(args ?? {}).success) return super.call(arg, configArg, tags);
    const config = configArg as ToolCallConfig | undefined;
    const toolCallId = (isToolCall(arg) ? arg.id : undefined) ?? config?.toolCall?.id;
    const result = await this.func(args, undefined, { ...config, toolCall: { id: toolCallId, args } } as RunnableConfig);
    const [content] = result as [unknown, unknown];
    return content;
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
