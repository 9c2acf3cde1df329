import type { z } from 'zod';
import type { ProgressUpdate } from './progress.js';
import type { Session } from './session.js';
import type { InputAliases } from './model-inputs/aliases.js';

/**
 * What a tool does, in the Agent Client Protocol's vocabulary. Approval modes are decided
 * from it: `plan` refuses `edit`, `delete`, `move` and `execute`; `accept-edits` runs `edit`
 * and `move` unasked.
 */
export const TOOL_KINDS = ['read', 'search', 'edit', 'delete', 'move', 'execute', 'think', 'fetch', 'other'] as const;

/** One of {@link TOOL_KINDS}. */
export type ToolKind = (typeof TOOL_KINDS)[number];

/** Tool names are snake_case and valid for every provider (OpenAI, Anthropic, Gemini, MCP). */
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/** An image a tool returns, base64-encoded. */
export interface ToolImage {
  /** Base64 data without a `data:` prefix. */
  readonly data: string;
  /** For example `image/png`. */
  readonly mediaType: string;
}

/** A tool's result after normalisation: what every adapter hands to its framework. */
export interface ToolResult {
  /** What the model reads. */
  readonly text: string;
  /** True when the call failed in an expected way; `text` then says what to do next. */
  readonly isError: boolean;
  /** Structured output for a user interface; never shown to the model. */
  readonly data?: unknown;
  readonly images?: readonly ToolImage[];
}

/** What `execute` may return: plain text, or text with details. */
export type ToolOutput = string | { text: string; isError?: boolean; data?: unknown; images?: readonly ToolImage[] };

/** Handed to `execute` for each call. */
export interface ToolContext {
  readonly toolCallId: string;
  /** Aborted when the call is cancelled or the turn ends. */
  readonly signal: AbortSignal;
  readonly session: Session;
  /**
   * Set when the call runs as a background job ({@link withBackground}): the job's own
   * ceiling replaces the tool's usual timeout. Its output reaches `job_output` through
   * {@link ToolContext.onProgress}; a tool that reports none is shown its result when it ends.
   */
  readonly background?: BackgroundContext;
  /**
   * Reports output or a status as the call runs (a command's lines, a count so far), for a
   * live view: AI SDK preliminary results, LangGraph custom stream events, MCP progress
   * notifications, a background job's output. Present only when someone listens, so a tool
   * calls it as `context.onProgress?.(…)` and does no work for it otherwise. The core cleans,
   * bounds and throttles what it is given; a tool may call it for every chunk.
   */
  readonly onProgress?: (update: ProgressUpdate) => void;
}

/** What a tool running as a background job gets in {@link ToolContext.background}. */
export interface BackgroundContext {
  /**
   * Reports output as it arrives (already cleaned up for the model).
   * @deprecated Call {@link ToolContext.onProgress}, which background jobs set too.
   */
  readonly onOutput: (text: string) => void;
}

/**
 * Whether a call needs a person's approval: a fixed answer or a function of the input.
 * Hosts override a tool's default per tool name.
 */
export type ApprovalRule<Input = any> =
  | boolean
  | ((input: Input, context: { session: Session }) => boolean | Promise<boolean>);

/** A tool written once and handed to every framework by an adapter. */
export interface ToolDefinition<Schema extends z.ZodObject = z.ZodObject> {
  /** snake_case, matching {@link TOOL_NAME_PATTERN}. */
  readonly name: string;
  /** The text the model reads: what the tool does, its limits, what to do on failure. */
  readonly description: string;
  readonly kind: ToolKind;
  /**
   * The kind of one call, when it depends on the input: a patch that deletes a file is a
   * `delete`, a text editor `view` is a `read`. Approval modes decide from it; `kind` stays the
   * tool's kind for everything else. Defaults to `kind`.
   */
  readonly kindOf?: (input: z.output<Schema>) => ToolKind;
  readonly input: Schema;
  readonly execute: (input: z.output<Schema>, context: ToolContext) => ToolOutput | Promise<ToolOutput>;
  /** The tool's default; `false` when left out. */
  readonly needsApproval?: ApprovalRule<z.output<Schema>>;
  /**
   * Policy checks that run before anyone is asked (path jail, command allowlists). Returns
   * the refusal text for the model, or nothing when the call may go on.
   */
  readonly checkPolicy?: (
    input: z.output<Schema>,
    context: { session: Session },
  ) => string | undefined | Promise<string | undefined>;
  /**
   * `execute` refuses everything `checkPolicy` would, with the same text, whenever
   * `checkPolicy` has not passed for that input object first: `checkPolicy` is there only so
   * that nobody approves a call that would be refused. {@link runTool} then calls it only when
   * a person is to be asked, or the approval mode refuses the call anyway (so the policy's
   * refusal still comes first); a call that runs unasked goes straight to `execute`. The
   * file tools of a remote workspace set it: their policy check is a round trip to the box,
   * and `execute` runs it there in the same request.
   */
  readonly executeChecksPolicy?: boolean;
  /** One line for an approval prompt, e.g. `Run: npm test`. Defaults to the tool name and its JSON input. */
  readonly describeCall?: (input: z.output<Schema>) => string;
  /**
   * The key an "always" decision is remembered under, or `undefined` when such a call must
   * never be remembered (a chained shell command). Defaults to the tool name.
   */
  readonly approvalKey?: (input: z.output<Schema>) => string | undefined;
  /** The tool may be started as a background job by {@link withBackground}. */
  readonly canRunInBackground?: boolean;
  /**
   * The tool's alias table: field names other harnesses use (`file_path` for `path`), each
   * with the field it means here and how its value converts. {@link runTool} maps them before
   * parsing and says so in the result; any other key the schema does not know is refused,
   * naming the field the model probably meant. See `src/model-inputs/README.md`.
   */
  readonly aliases?: InputAliases;
  /**
   * The shape of `data` in every successful result, for hosts that pass structured output
   * on (MCP's `outputSchema` and `structuredContent`). Declare it only when every success
   * carries `data` of this shape; leave it out when `data` varies or is absent.
   */
  readonly output?: z.ZodObject;
  /**
   * What a call does beyond its result, for hosts that show or act on it (MCP's tool
   * hints). Fields left out are derived from {@link ToolDefinition.kind}.
   */
  readonly effects?: ToolEffects;
  /**
   * The tool reports progress through {@link ToolContext.onProgress}. Adapters whose
   * framework streams progress in the tool's return value (the AI SDK's preliminary
   * results) do so only for such tools, so quick tools keep a single result.
   */
  readonly reportsProgress?: boolean;
  /**
   * The tool is answered by the user interface, not by `execute` (an ask-user tool without a
   * callback). Adapters hand the call to the client (the AI SDK as a tool without `execute`,
   * LangGraph through `interrupt()`, OpenAI as a pending call) and turn the client's answer
   * into the result with `toResult`, which validates it. `execute` is still present and
   * answers with an error for hosts that cannot do that.
   */
  readonly answeredByClient?: {
    readonly toResult: (input: z.output<Schema>, answer: unknown) => ToolOutput;
  };
}

/**
 * What a tool's calls do to the world. Hosts use it to decide how much care a call needs
 * (MCP sends it as `readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`).
 */
export interface ToolEffects {
  /** The call changes nothing outside its own result (reading, searching, asking). */
  readonly readOnly?: boolean;
  /** The call may overwrite or remove something that existed before it. */
  readonly destructive?: boolean;
  /** Repeating the call with the same input changes nothing more than the first call did. */
  readonly idempotent?: boolean;
  /** The call reaches outside the workspace and the session (a network, another service, any program). */
  readonly openWorld?: boolean;
}

/** A group of tools with the text they add to the system prompt and to each model call. */
export interface ToolCollection {
  readonly name: string;
  readonly tools: readonly ToolDefinition<any>[];
  /** Text for the system prompt. Stays the same from call to call. */
  readonly instructions?: string;
  /**
   * A short text injected before each model call (the date, the open tasks, finished jobs),
   * or nothing. Adapters put it last in the prompt so prompt caches keep working.
   */
  readonly context?: (session: Session) => string | undefined | Promise<string | undefined>;
}

/**
 * Defines a tool. Checks the name and kind at once so a mistake fails where it was made.
 *
 * @example
 * const echo = defineTool({
 *   name: 'echo', description: 'Repeats the text.', kind: 'other',
 *   input: z.object({ text: z.string().describe('What to repeat') }),
 *   execute: ({ text }) => text,
 * });
 */
export function defineTool<Schema extends z.ZodObject>(definition: ToolDefinition<Schema>): ToolDefinition<Schema> {
  if (!TOOL_NAME_PATTERN.test(definition.name)) {
    throw new TypeError(
      `Expected the tool \`name\` to match ${TOOL_NAME_PATTERN} (snake_case, at most 64 characters), got \`${definition.name}\`.`,
    );
  }
  if (!(TOOL_KINDS as readonly string[]).includes(definition.kind)) {
    throw new TypeError(
      `Expected the \`kind\` of tool \`${definition.name}\` to be one of ${TOOL_KINDS.join(', ')}, got \`${String(definition.kind)}\`.`,
    );
  }
  if (typeof definition.execute !== 'function') {
    throw new TypeError(`Expected tool \`${definition.name}\` to have an \`execute\` function.`);
  }
  return Object.freeze({ ...definition });
}

/** Turns whatever `execute` returned into a {@link ToolResult}. */
export function normalizeOutput(output: ToolOutput): ToolResult {
  if (typeof output === 'string') return { text: output, isError: false };
  const result: { -readonly [K in keyof ToolResult]: ToolResult[K] } = {
    text: output.text,
    isError: output.isError ?? false,
  };
  if (output.data !== undefined) result.data = output.data;
  if (output.images !== undefined && output.images.length > 0) result.images = output.images;
  return result;
}
