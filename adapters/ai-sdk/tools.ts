import * as ai from 'ai';
import { jsonSchema, type Tool, type ToolExecutionOptions } from 'ai';
import { z } from 'zod';
import {
  approvalBatchesOf,
  errorResult,
  formatInputError,
  normalizeOutput,
  notAskedText,
  prepareToolCall,
  rememberApproval,
  runTool,
  streamProgress,
  withCallOrder,
  type ProgressListener,
  type ToolDefinition,
  type ToolImage,
  type ToolResult,
} from '../../src/index.js';
import { APPROVE_ALWAYS_REASON, approvalDescription, findApprovalResponse, type AiSdkApprovalOptions, type ApprovalSettings } from './approval.js';

/**
 * What a toolbelt tool returns in the AI SDK: the model reads `text` (through
 * `toModelOutput`); `data` and `images` are there for user interfaces.
 */
export interface AiSdkToolOutput {
  readonly text: string;
  readonly isError: boolean;
  readonly data?: unknown;
  readonly images?: readonly ToolImage[];
  /**
   * Only in preliminary results (a part with `preliminary: true`), while the call runs:
   * `text` is then the newest output (or the status message), and this says where the call is.
   */
  readonly progress?: AiSdkToolProgress;
}

/** Where a running call is, in a preliminary result's {@link AiSdkToolOutput.progress}. */
export interface AiSdkToolProgress {
  /** 1, 2, 3 … in the order the preliminary results were sent. */
  readonly sequence: number;
  /** The status line, when the tool gives one ("12 files match so far"). */
  readonly message?: string;
  readonly progress?: number;
  readonly total?: number;
  /** Characters of output so far; `text` holds the newest of them. */
  readonly totalCharacters: number;
  readonly elapsedMs: number;
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
      execute: (input: unknown, options: ToolExecutionOptions<any>) =>
        execution(tool, async (onProgress) =>
          toOutput(await runTool(tool, input, { ...settings, approve: settings.onApproval, toolCallId: options.toolCallId, signal: options.abortSignal, onProgress })),
        ),
    };
  }
  return {
    ...common,
    needsApproval: async (input: unknown, options: AiSdkApprovalOptions) => (await approvalDescription(tool, input, options, settings)) !== undefined,
    execute: (input: unknown, options: ToolExecutionOptions<any>) => execution(tool, (onProgress) => executeApproved(tool, input, options, settings, onProgress)),
  };
}

/**
 * `execute` in the SDK's approval flow. A call that needs approval runs only with the
 * person's approval, which the SDK puts in the messages it resumes with; without one the
 * model is told why it was not asked (see {@link notAskedText}), so the core never has to ask
 * again. The decision is taken in the call's place in the session's call order, after the
 * calls before it in the step have run.
 */
async function executeApproved(
  tool: ToolDefinition<any>,
  input: unknown,
  options: ToolExecutionOptions<any>,
  settings: ApprovalSettings,
  onProgress: ProgressListener | undefined,
): Promise<AiSdkToolOutput> {
  const base = { ...settings, toolCallId: options.toolCallId, onProgress };
  const batches = approvalBatchesOf(settings.session);
  try {
    const result = await withCallOrder(settings.session, tool.kind, options.abortSignal, async () => {
      const prepared = await prepareToolCall(tool, input, base);
      const approved = prepared.status === 'needs-approval';
      if (approved) {
        const response = findApprovalResponse(options.messages, options.toolCallId);
        if (response?.approved !== true) return { text: notAskedText(tool.name, batches.refusedWhenChecked(options.toolCallId)), isError: true };
        if (response.reason === APPROVE_ALWAYS_REASON) rememberApproval(settings.session, tool, prepared.input);
      }
      return runTool(tool, input, { ...base, signal: options.abortSignal, approved, queued: true });
    });
    return toOutput(result ?? { text: `${tool.name} was cancelled before it started.`, isError: true });
  } catch (error) {
    return toOutput(errorResult(tool.name, error));
  } finally {
    batches.finished(options.toolCallId);
  }
}

/**
 * Runs a call. A tool that reports progress returns an async iterable: the SDK streams each
 * item but the last as a preliminary result (`preliminary: true` parts in `streamText` and
 * `useChat`), and the last, the usual output, as the result. Other tools return one promise.
 */
function execution(
  tool: ToolDefinition<any>,
  call: (onProgress: ProgressListener | undefined) => Promise<AiSdkToolOutput>,
): Promise<AiSdkToolOutput> | AsyncIterable<AiSdkToolOutput> {
  if (tool.reportsProgress !== true) return call(undefined);
  return preliminaryOutputs(call);
}

async function* preliminaryOutputs(call: (onProgress: ProgressListener) => Promise<AiSdkToolOutput>): AsyncGenerator<AiSdkToolOutput> {
  for await (const item of streamProgress(call)) {
    if (item.type === 'result') {
      yield item.result;
      continue;
    }
    const { recentOutput, message, progress, total, sequence, totalCharacters, elapsedMs } = item.progress;
    yield {
      text: recentOutput === '' ? (message ?? '') : recentOutput,
      isError: false,
      progress: {
        sequence,
        totalCharacters,
        elapsedMs,
        ...(message === undefined ? {} : { message }),
        ...(progress === undefined ? {} : { progress }),
        ...(total === undefined ? {} : { total }),
      },
    };
  }
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
