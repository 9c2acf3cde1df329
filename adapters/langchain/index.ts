/** @module agent-toolbelt/langchain: the toolbelt's tools and middleware for LangChain `createAgent` and LangGraph. */
import { assertCollections } from '../../src/argument-checks.js';
import type { AgentMiddleware } from 'langchain';
import {
  assertApprovalMode,
  assertApprovalOverrides,
  assertCallRecordingOptions,
  collectInstructions,
  collectTools,
  errorResult,
  recordingOptions,
  withBackground,
  type ApprovalMode,
  type ApprovalOverrides,
  type ApproveFunction,
  type CallRecordingOptions,
  type Session,
  type ToolCollection,
} from '../../src/index.js';
import { createToolbeltMiddleware } from './middleware.js';
import { runCall } from './run-call.js';
import { createSessionResolver, threadIdOf, type SessionOptions } from './sessions.js';
import { ToolbeltStructuredTool } from './structured-tool.js';

export { MIDDLEWARE_NAME } from './middleware.js';
export { batchedApprovalText, batchedQuestionText } from './run-call.js';
export type { ToolProgressChunk } from './run-call.js';
export { ToolbeltStructuredTool } from './structured-tool.js';
export { langchainVision } from './vision.js';
export type { ApprovalInterrupt, ApprovalResume, InterruptedToolCall, QuestionInterrupt } from './interrupts.js';
export type { SessionResolver } from './sessions.js';

/** Options of {@link toLangChain}. */
export interface LangChainOptions extends SessionOptions, CallRecordingOptions {
  /**
   * Asks a person and waits for the answer, for hosts that can wait (a terminal, a queue).
   * Without it, a call that needs approval pauses the graph with an approval interrupt, or
   * is refused when the run has no checkpointer to pause with.
   */
  readonly onApproval?: ApproveFunction;
  /** @default 'ask' */
  readonly mode?: ApprovalMode;
  /** Per-tool overrides of the approval default, by tool name. */
  readonly needsApproval?: ApprovalOverrides;
  /**
   * Tools the model may start as background jobs (`run_in_background`), through the core's
   * `withBackground`; adds `job_output`, `job_stop`, `job_list`, and finished-job notices
   * before model calls.
   * @default []
   */
  readonly background?: readonly string[];
}

/** What {@link toLangChain} returns. */
export interface LangChainToolbelt {
  /** One StructuredTool per core tool, for `createAgent`, `ToolNode`, `bindTools` or your own node. */
  readonly tools: ToolbeltStructuredTool[];
  /** The `createAgent` middleware: context before each model call, tool errors as ToolMessages. */
  readonly middleware: AgentMiddleware;
  /** The collections' instructions, for the system prompt. */
  readonly instructions: string;
  /** The session a thread's calls use (the same one the tools and the middleware resolve). */
  readonly sessionFor: (threadId?: string) => Promise<Session>;
}

/**
 * Hands tool collections to LangChain and LangGraph. Every call runs through the core's
 * `runTool` with the session of the run's `thread_id`, so a checkpointer's threads and the
 * toolbelt's state (task list, read snapshots, "always" approvals, jobs) stay in step.
 *
 * @example
 * const belt = toLangChain([files, shell, tasks], { background: ['run_shell'] });
 * const agent = createAgent({ model, tools: belt.tools, middleware: [belt.middleware],
 *   systemPrompt: belt.instructions, checkpointer: new MemorySaver() });
 */
export function toLangChain(collections: readonly ToolCollection[], options: LangChainOptions = {}): LangChainToolbelt {
  assertCollections(collections, 'toLangChain');
  assertApprovalMode(options.mode);
  if (options.onApproval !== undefined && typeof options.onApproval !== 'function') {
    throw new TypeError(`Expected the \`onApproval\` option to be a function, got \`${String(options.onApproval)}\` (${typeof options.onApproval}).`);
  }
  const background = options.background ?? [];
  if (!Array.isArray(background) || background.some((name) => typeof name !== 'string')) {
    throw new TypeError(`Expected the \`background\` option to be an array of tool names, got \`${JSON.stringify(options.background)}\`.`);
  }
  const all = withBackground(collections, { tools: background });
  const definitions = collectTools(all);
  assertApprovalOverrides(options.needsApproval, definitions.keys());
  const resolveSession = createSessionResolver(options);
  assertCallRecordingOptions(options, 'toLangChain');
  const settings = { onApproval: options.onApproval, mode: options.mode, needsApproval: options.needsApproval, ...recordingOptions(options) };

  const tools = [...definitions.values()].map(
    (definition) =>
      new ToolbeltStructuredTool(definition, async (args, toolCallId, config) => {
        let session: Session;
        const threadId = threadIdOf(config?.configurable);
        try {
          session = await resolveSession(threadId);
        } catch (error) {
          return errorResult(definition.name, error);
        }
        const result = await runCall(definition, { toolCallId, args, session, config }, settings);
        if (resolveSession.persist === undefined) return result;
        // With a sessionStore, every call's changes are saved at once, so an interrupt or a crash later in the run keeps them.
        try {
          await resolveSession.persist(threadId);
        } catch (error) {
          return errorResult(definition.name, error);
        }
        return result;
      }),
  );
  return {
    tools,
    middleware: createToolbeltMiddleware(all, resolveSession),
    instructions: collectInstructions(all),
    sessionFor: async (threadId) => resolveSession(threadId),
  };
}

