import * as ai from 'ai';
import { jsonSchema, type Tool, type ToolExecutionOptions } from 'ai';
import { z } from 'zod';
import {
  errorResult,
  formatInputError,
  noApproverText,
  normalizeOutput,
  prepareToolCall,
  rememberApproval,
  runTool,
  type ToolDefinition,
  type ToolImage,
  type ToolResult,
} from '../../src/index.js';
import { APPROVE_ALWAYS_REASON, approvalDescription, findApprovalResponse, type ApprovalSettings } from './approval.js';

/**
 * What a toolbelt tool returns in the AI SDK: the model reads `text` (through
 * `toModelOutput`); `data` and `images` are there for user interfaces.
 */
export interface AiSdkToolOutput {
  readonly text: string;
  readonly isError: boolean;
  readonly data?: unknown;
  readonly images?: readonly ToolImage[];
}

/** An image of a result as the installed SDK wants it: ai v7 deprecated `image-data` (with a warning) for `file` parts, which ai v6 does not know. */
type ImagePart = { type: 'image-data'; data: string; mediaType: string } | { type: 'file'; data: { type: 'data'; data: string }; mediaType: string };

/** What the model reads, in the SDK's tool-result shape. */
type ModelOutput =
  | { type: 'text' | 'error-text'; value: string }
  | { type: 'json'; value: any }
  | { type: 'content'; value: Array<{ type: 'text'; text: string } | ImagePart> };

/** True on ai v7 (it exports `isStepCount`, which ai v6 lacks), which wants images as `file` parts. */
const FILE_IMAGE_PARTS = 'isStepCount' in ai;

/**
 * Converts one toolbelt tool into an AI SDK tool. The SDK gets the schema as plain JSON
 * Schema without a validator, so bad arguments reach `runTool`, which answers the model with
 * a message naming every wrong field instead of failing the step.
 */
export function toAiSdkTool(tool: ToolDefinition<any>, settings: ApprovalSettings): Tool<any, any> {
  // `$schema` only names the JSON Schema dialect: tokens the model reads on every call for nothing.
  const { $schema: _dialect, ...schema } = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' });
  const inputSchema = jsonSchema(schema as any);
  if (tool.answeredByClient !== undefined) return clientTool(tool, inputSchema);

  const common = { description: tool.description, inputSchema, toModelOutput: ({ output }: { output: unknown }) => modelOutput(output) };
  if (settings.onApproval !== undefined) {
    return {
      ...common,
      execute: async (input: unknown, options: ToolExecutionOptions<any>) =>
        toOutput(await runTool(tool, input, { ...settings, approve: settings.onApproval, toolCallId: options.toolCallId, signal: options.abortSignal })),
    };
  }
  return {
    ...common,
    needsApproval: async (input: unknown, { toolCallId }: { toolCallId: string }) =>
      (await approvalDescription(tool, input, toolCallId, settings)) !== undefined,
    execute: async (input: unknown, options: ToolExecutionOptions<any>) => {
      const base = { ...settings, toolCallId: options.toolCallId };
      try {
        // A call that needs approval runs only with the person's approval, which the SDK puts in
        // the messages it resumes with; anything else (a host `toolApproval` that skipped the
        // question) is refused, so the core never has to ask again.
        const prepared = await prepareToolCall(tool, input, base);
        const approved = prepared.status === 'needs-approval';
        if (approved) {
          const response = findApprovalResponse(options.messages, options.toolCallId);
          if (response?.approved !== true) return toOutput({ text: noApproverText(tool.name), isError: true });
          if (response.reason === APPROVE_ALWAYS_REASON) rememberApproval(settings.session, tool, prepared.input);
        }
        return toOutput(await runTool(tool, input, { ...base, signal: options.abortSignal, approved }));
      } catch (error) {
        return toOutput(errorResult(tool.name, error));
      }
    },
  };
}

/** A tool the user interface answers (`addToolOutput`); its answer is checked and worded by the core. */
function clientTool(tool: ToolDefinition<any>, inputSchema: ReturnType<typeof jsonSchema>): Tool<any, any> {
  const answeredByClient = tool.answeredByClient!;
  return {
    description: tool.description,
    inputSchema,
    toModelOutput: ({ input, output }: { input: unknown; output: unknown }) => {
      const parsed = tool.input.safeParse(input ?? {});
      if (!parsed.success) return { type: 'error-text', value: formatInputError(tool.name, parsed.error) };
      try {
        return modelOutput(normalizeOutput(answeredByClient.toResult(parsed.data, output)));
      } catch (error) {
        return modelOutput(toOutput(errorResult(tool.name, error)));
      }
    },
  } as Tool<any, any>;
}

/** Drops the unexpected error behind a result: it is not JSON and the UI has `text`. */
function toOutput(result: ToolResult & { error?: unknown }): AiSdkToolOutput {
  const { error: _error, ...output } = result;
  return output;
}

function modelOutput(output: unknown): ModelOutput {
  if (!isToolOutput(output)) return { type: 'json', value: output ?? null };
  if (output.isError) return { type: 'error-text', value: output.text };
  if (output.images === undefined || output.images.length === 0) return { type: 'text', value: output.text };
  return {
    type: 'content',
    value: [
      { type: 'text', text: output.text },
      ...output.images.map((image): ImagePart =>
        FILE_IMAGE_PARTS
          ? { type: 'file', data: { type: 'data', data: image.data }, mediaType: image.mediaType }
          : { type: 'image-data', data: image.data, mediaType: image.mediaType },
      ),
    ],
  };
}

function isToolOutput(output: unknown): output is AiSdkToolOutput {
  return typeof output === 'object' && output !== null && typeof (output as { text?: unknown }).text === 'string';
}
