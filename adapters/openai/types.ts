import type {
  ApprovalDecision,
  ApprovalMode,
  ApprovalOverrides,
  ApproveFunction,
  CallOutcome,
  CallRecordingOptions,
  PendingCall,
  ProgressListener,
  Session,
} from '../../src/index.js';
import type { JsonSchema } from './strict-schema.js';

/** Which OpenAI API the specs and messages are shaped for. */
export type OpenAIApi = 'chat' | 'responses';

/** Options of {@link toOpenAI}. */
export interface ToOpenAIOptions<Api extends OpenAIApi = OpenAIApi, Native extends boolean = boolean> extends CallRecordingOptions {
  /** `chat` for Chat Completions, `responses` for the Responses API. */
  readonly api: Api;
  /**
   * Responses API only: offer the files and shell collections as the API's own `apply_patch`
   * (in place of `create_file`, `write_file`, `edit_file`, `delete_file`) and `shell` (in
   * place of `run_shell`) tools, which GPT-5.1 and later are trained on. `handleToolCalls`
   * then answers `apply_patch_call` and `shell_call` items with `apply_patch_call_output`
   * and `shell_call_output` items, run by the same rules as the tools they replace.
   * @default false
   */
  readonly native?: Native;
  /**
   * Send strict-mode specs. A tool whose schema strict mode cannot express is sent with
   * `strict: false` and a console warning.
   * @default true
   */
  readonly strict?: boolean;
  /** The conversation's state. @default a new session, exposed as `belt.session` */
  readonly session?: Session;
  /**
   * Asks a person about a call that needs approval, while `handleToolCalls` waits. Without it,
   * such calls come back in `pending` for the host to answer with `resolvePending`.
   */
  readonly onApproval?: ApproveFunction;
  /** Tools that may run as background jobs (adds `run_in_background` and the job tools). */
  readonly background?: readonly string[];
  /** @default 'ask' */
  readonly mode?: ApprovalMode;
  /** Per-tool overrides of the approval default, by tool name. */
  readonly needsApproval?: ApprovalOverrides;
  /**
   * The role of the message `contextMessage()` returns. `developer` suits OpenAI's own models;
   * `user` works with every OpenAI-compatible server.
   * @default 'user'
   */
  readonly contextRole?: 'user' | 'developer';
  /**
   * Receives each call's progress while `handleToolCalls` waits (a command's output as it
   * arrives, a count so far): cleaned, bounded, at most one event every 250 ms per call,
   * the last before the call's result. Show it in your interface; the model never sees it.
   */
  readonly onProgress?: ProgressListener;
}

/** A Chat Completions function spec. */
export interface ChatFunctionTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description: string; readonly parameters: JsonSchema; readonly strict: boolean };
}

/** A Responses API function spec. */
export interface ResponsesFunctionTool {
  readonly type: 'function';
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  readonly strict: boolean;
}

/** A tool call from a Chat Completions assistant message (`message.tool_calls[i]`). */
export interface ChatToolCall {
  readonly id: string;
  readonly type?: string;
  readonly function?: { readonly name: string; readonly arguments: string };
}

/**
 * An item of a Responses API `response.output`. Only `function_call` items are run; the
 * fields are checked at run time, so every output item type fits.
 */
export interface ResponsesFunctionCall {
  readonly type: string;
  readonly call_id?: unknown;
  readonly name?: unknown;
  readonly arguments?: unknown;
}

/** A Chat Completions message the dispatcher produces (mutable, to fit the `openai` types). */
export type ChatResultMessage =
  | { role: 'tool'; tool_call_id: string; content: string }
  | { role: 'user'; content: Array<{ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }> };

/** A Responses API `function_call_output` input item (mutable, to fit the `openai` types). */
export interface FunctionCallOutputItem {
  type: 'function_call_output';
  call_id: string;
  output: string | Array<{ type: 'input_text'; text: string } | { type: 'input_image'; image_url: string; detail: 'auto' }>;
}

/** The Responses API's own tools, as the request names them. */
export type ResponsesNativeTool = { readonly type: 'apply_patch' } | { readonly type: 'shell' };

/** An `apply_patch_call_output` input item (mutable, to fit the `openai` types). */
export interface ApplyPatchCallOutputItem {
  type: 'apply_patch_call_output';
  call_id: string;
  status: 'completed' | 'failed';
  output: string;
}

/** A `shell_call_output` input item: one entry per command, with its outcome. */
export interface ShellCallOutputItem {
  type: 'shell_call_output';
  call_id: string;
  max_output_length: number | null;
  output: Array<{ stdout: string; stderr: string; outcome: { type: 'exit'; exit_code: number } | { type: 'timeout' } }>;
}

/**
 * A call the host has to answer before the conversation can go on. The core's
 * {@link PendingCall} under this adapter's name: the OpenAI and Anthropic adapters hand back
 * the same pending calls, so a host answers them the same way.
 */
export type PendingToolCall = PendingCall;

/** One call's outcome, in call order; `result` is missing while the call is pending. The core's {@link CallOutcome}. */
export type ToolCallOutcome = CallOutcome;

/** Answers for pending calls, by `callId`: an {@link ApprovalDecision} or a client's answer. */
export type PendingAnswers = Readonly<Record<string, ApprovalDecision | unknown>>;

/** What `handleToolCalls` returns. Plain JSON: it can be stored between requests. */
export interface HandledToolCalls<Message> {
  /**
   * The results as messages (chat) or input items (responses), in call order. While `pending`
   * is not empty it holds only the finished calls: answer the pending ones with
   * `resolvePending` before sending anything to the model.
   */
  readonly messages: Message[];
  readonly pending: PendingToolCall[];
  readonly outcomes: ToolCallOutcome[];
}

/** A Responses API input item `handleToolCalls` returns: with `native`, also the native tools' output items. */
export type ResponsesResultItem<Native extends boolean> = Native extends true ? FunctionCallOutputItem | ApplyPatchCallOutputItem | ShellCallOutputItem : FunctionCallOutputItem;

/** What {@link toOpenAI} returns for one API. */
export interface OpenAIToolbelt<Api extends OpenAIApi, Native extends boolean = false> {
  /** The request's `tools`. */
  readonly tools: Api extends 'chat' ? ChatFunctionTool[] : Native extends true ? Array<ResponsesFunctionTool | ResponsesNativeTool> : ResponsesFunctionTool[];
  /** Text for the system prompt (`instructions` in the Responses API). */
  readonly instructions: string;
  readonly session: Session;
  /** Runs the model's calls and returns their results. Never throws for anything the model sent. */
  handleToolCalls(
    calls: Api extends 'chat' ? readonly ChatToolCall[] | null | undefined : readonly ResponsesFunctionCall[] | null | undefined,
    options?: { readonly signal?: AbortSignal },
  ): Promise<HandledToolCalls<Api extends 'chat' ? ChatResultMessage : ResponsesResultItem<Native>>>;
  /** Answers pending calls (approvals run or are refused) and returns every result in call order. */
  resolvePending(
    handled: HandledToolCalls<Api extends 'chat' ? ChatResultMessage : ResponsesResultItem<Native>>,
    answers: PendingAnswers,
    options?: { readonly signal?: AbortSignal },
  ): Promise<HandledToolCalls<Api extends 'chat' ? ChatResultMessage : ResponsesResultItem<Native>>>;
  /** A message holding the collections' context (date, tasks, finished jobs) to append last, or `null`. */
  contextMessage(): Promise<{ role: 'user' | 'developer'; content: string } | null>;
}
