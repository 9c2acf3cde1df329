import type { ApprovalDecision, ApprovalMode, ApprovalOverrides, Session, ToolCollection } from '../../src/index.js';

/** One tool call the scripted model makes: arguments as a JSON value. */
export interface ScriptedCall {
  readonly tool: string;
  readonly input: Record<string, unknown>;
}

/** What a person is shown when asked to approve a call: the tool's name and, where the flow has one, the call's description. */
export interface AskedApproval {
  readonly toolName: string;
  readonly description?: string;
}

/** The person who answers approvals in a scenario. */
export type Approver = (asked: AskedApproval) => ApprovalDecision;

/** One conversation for a driver to play through its framework. */
export interface DriverRun {
  readonly collections: readonly ToolCollection[];
  readonly session: Session;
  /** Answers calls that need approval; without it the adapter's safe default applies. */
  readonly approver?: Approver;
  readonly mode?: ApprovalMode;
  readonly needsApproval?: ApprovalOverrides;
  /** The model's turns, each a batch of tool calls. After the last turn the model answers `Done.` */
  readonly turns: ReadonlyArray<ReadonlyArray<ScriptedCall>>;
}

/** A tool result as the model received it. */
export interface SeenResult {
  readonly tool: string;
  readonly text: string;
  readonly isError: boolean;
}

/** What the model saw by the end of a run. */
export interface ModelView {
  /** Every tool result the model was sent, in call order. */
  readonly results: readonly SeenResult[];
  /** The text of each message of the last prompt the model was sent (none where the framework has no prompt: MCP). */
  readonly lastPrompt?: readonly string[];
}

/**
 * One adapter driven through its real framework with a scripted model: the AI SDK's
 * `generateText`, LangChain's `createAgent`, the `openai` client against a local server,
 * an MCP `Client` over an in-memory transport.
 */
export interface Driver {
  /** Shown in the test names: the framework and the approval flow. */
  readonly name: string;
  readonly framework: 'ai-sdk' | 'langchain' | 'openai' | 'anthropic' | 'mcp';
  /**
   * `callback`: the host's `onApproval` function (the same in every adapter);
   * `native`: the framework's own flow (AI SDK approval parts, LangGraph interrupts, OpenAI pending calls, MCP elicitation).
   */
  readonly approvals: 'callback' | 'native';
  /** False for MCP: a server never sees the model's prompt, so the host injects context, not the adapter. */
  readonly hasPrompt: boolean;
  /** True for MCP: the SDK checks arguments against the schema before the core sees them. */
  readonly validatesArgumentsFirst: boolean;
  run(run: DriverRun): Promise<ModelView>;
}

/** The scripted model's closing answer after its last tool turn. */
export const FINAL_ANSWER = 'Done.';
