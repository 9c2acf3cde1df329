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

/** Options of {@link toAnthropic}. */
export interface ToAnthropicOptions extends CallRecordingOptions {
  /** The conversation's state. @default a new session, exposed as `belt.session` */
  readonly session?: Session;
  /**
   * Asks a person about a call that needs approval, while `handleToolUses` waits. Without it,
   * such calls come back in `pending` for the host to answer with `resolvePending`.
   */
  readonly onApproval?: ApproveFunction;
  /** @default 'ask' */
  readonly mode?: ApprovalMode;
  /** Per-tool overrides of the approval default, by tool name (native tools by their own name: `str_replace_based_edit_tool`, `bash`). */
  readonly needsApproval?: ApprovalOverrides;
  /** Tools that may run as background jobs (adds `run_in_background` and the job tools). */
  readonly background?: readonly string[];
  /**
   * Offer the files and shell collections as Claude's own tools: the text editor
   * (`text_editor_20250728`, in place of `read_file`, `create_file`, `write_file` and
   * `edit_file`) and bash (`bash_20250124`, in place of `run_shell`), run by the same rules.
   * `{ maxCharacters }` sets the text editor's `max_characters`.
   * @default false
   */
  readonly native?: boolean | { readonly maxCharacters?: number };
  /** Receives each call's progress (a command's output as it arrives) while `handleToolUses` waits. */
  readonly onProgress?: ProgressListener;
}

/** A custom tool of the Messages API's `tools`. */
export interface AnthropicCustomTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: { readonly type: 'object'; readonly [key: string]: unknown };
}

/** Claude's text editor, as the request names it. */
export interface AnthropicTextEditorTool {
  readonly type: 'text_editor_20250728';
  readonly name: 'str_replace_based_edit_tool';
  readonly max_characters?: number;
}

/** Claude's bash tool, as the request names it. */
export interface AnthropicBashTool {
  readonly type: 'bash_20250124';
  readonly name: 'bash';
}

/** One entry of the request's `tools`. */
export type AnthropicTool = AnthropicCustomTool | AnthropicTextEditorTool | AnthropicBashTool;

/**
 * A block of an assistant message's `content`. Only `tool_use` blocks are run; the fields are
 * checked at run time, so every block type (text, thinking, server tools) fits.
 */
export interface AnthropicContentBlock {
  readonly type: string;
  readonly id?: unknown;
  readonly name?: unknown;
  readonly input?: unknown;
}

/** A `tool_result` block for the next user message (mutable, to fit the SDK's types). */
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string | Array<{ type: 'text'; text: string } | { type: 'image'; source: { type: 'base64'; media_type: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'; data: string } }>;
  is_error?: boolean;
}

/** What `handleToolUses` returns. Plain JSON: it can be stored between requests. */
export interface HandledToolUses {
  /**
   * The `tool_result` blocks in call order, to open the next user message. While `pending` is
   * not empty it holds only the finished calls: answer the pending ones with `resolvePending`
   * before sending anything to the model (the API wants a result for every `tool_use`).
   */
  readonly content: ToolResultBlock[];
  readonly pending: PendingCall[];
  readonly outcomes: CallOutcome[];
}

/** Answers for pending calls, by call id: an {@link ApprovalDecision} or a client's answer. */
export type PendingAnswers = Readonly<Record<string, ApprovalDecision | unknown>>;

/** What {@link toAnthropic} returns. */
export interface AnthropicToolbelt {
  /** The request's `tools`. */
  readonly tools: AnthropicTool[];
  /** Text for the `system` prompt. */
  readonly instructions: string;
  readonly session: Session;
  /** Runs the `tool_use` blocks of an assistant message's `content`. Never throws for anything the model sent. */
  handleToolUses(content: readonly AnthropicContentBlock[] | null | undefined, options?: { readonly signal?: AbortSignal }): Promise<HandledToolUses>;
  /** Answers pending calls (approvals run or are refused) and returns every result in call order. */
  resolvePending(handled: HandledToolUses, answers: PendingAnswers, options?: { readonly signal?: AbortSignal }): Promise<HandledToolUses>;
  /** A text block with the collections' context (date, tasks, finished jobs) for the end of the last user message, or `null`. */
  contextBlock(): Promise<{ type: 'text'; text: string } | null>;
}
