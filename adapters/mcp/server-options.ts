import { assertApprovalMode, Session, type ApprovalMode, type CallRecordingOptions, type ApprovalOverrides, type ApproveFunction, type SessionStore, type ToolDefinition } from '../../src/index.js';
import { assertRequestStateKeys } from './request-state.js';

/** A call that was not run, for {@link McpServerOptions.approvalHint}. */
export interface RefusedCall {
  readonly tool: ToolDefinition<any>;
  /** The parsed input. */
  readonly input: Record<string, unknown>;
  /**
   * Why: it needs approval and the client cannot ask for it, or the approval mode switches
   * its kind off (`plan`).
   */
  readonly reason: 'needs-approval' | 'mode';
}

/** Options of {@link createMcpServer}. */
export interface McpServerOptions extends CallRecordingOptions {
  /** The server's name, shown by clients. @default 'agent-toolbelt' */
  readonly name?: string;
  /** The server's version, shown by clients. @default the version of agent-toolbelt (its package.json) */
  readonly version?: string;
  /**
   * The state of the connection's conversation; close it yourself when the connection ends.
   * @default a new session, closed (its background jobs stopped) when the connection closes
   */
  readonly session?: Session;
  /**
   * Keep each conversation's session in this store instead (`createFileSessionStore`,
   * `createPostgresSessionStore`, `createRedisSessionStore`), loaded and saved around every
   * call, one call of a conversation at a time, so any number of instances serve it. A
   * conversation is an MCP session (`Mcp-Session-Id`) for 2025-era clients, and for
   * 2026-07-28 clients, which have no session, the user (`authInfo`) and the conversation the
   * request names in `_meta['agent-toolbelt/conversation']`. Not with `session`.
   */
  readonly sessionStore?: SessionStore;
  /**
   * The keys that sign the `requestState` of a question put to a 2026-07-28 client (an
   * approval, `ask_user_question`), newest first, each at least 32 bytes: the first signs,
   * every one verifies, so a key is rotated by putting the new one first and keeping the old
   * one second until the questions it signed have expired (10 minutes). Every instance that
   * may receive the answer needs the same keys.
   * @default a random key made once per process
   */
  readonly requestStateKeys?: readonly (string | Uint8Array)[];
  /**
   * Decides about calls that need approval when the client cannot ask its user (no
   * elicitation). Without it such calls are refused with {@link McpServerOptions.approvalHint}.
   */
  readonly onApproval?: ApproveFunction;
  /** @default 'ask' */
  readonly mode?: ApprovalMode;
  /**
   * Ask before every change: each tool that edits, creates, moves or deletes files or runs
   * a command needs approval, on top of the tools that ask anyway. Only with mode `ask`.
   * @default false
   */
  readonly askForChanges?: boolean;
  /** Tools that may run as background jobs (`['run_shell']`): adds `run_in_background` and the job tools. */
  readonly background?: readonly string[];
  /** Per-tool overrides of the approval default, by tool name; they win over `askForChanges`. */
  readonly needsApproval?: ApprovalOverrides;
  /**
   * What the model is told, after the refusal, about how the user can allow a call that
   * needs approval: a sentence, or a function of the call that names what would allow it.
   * A function is also asked about calls the mode refuses (`plan`), and its answer follows
   * the mode's own refusal.
   * @default 'The user can allow such calls in the server configuration (an approval mode or a per-tool override), or use an MCP client that supports elicitation.'
   */
  readonly approvalHint?: string | ((call: RefusedCall) => string | Promise<string>);
  /**
   * How long an elicitation form (an approval, a question) waits for the user. An approval
   * left unanswered is a denial; a question left unanswered is reported as dismissed.
   * @default 600_000 (10 minutes)
   */
  readonly elicitationTimeoutMs?: number;
}

/** Throws a `TypeError` naming the option and the fix for a wrong option of {@link createMcpServer}. */
export function validateServerOptions(options: McpServerOptions): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('Expected the options of `createMcpServer` to be an object.');
  for (const key of ['name', 'version'] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) {
      throw new TypeError(`Expected the \`${key}\` option to be a non-empty string, got \`${String(value)}\` (${typeof value}).`);
    }
  }
  const hint = options.approvalHint;
  if (hint !== undefined && typeof hint !== 'function' && (typeof hint !== 'string' || hint.trim() === '')) {
    throw new TypeError(`Expected the \`approvalHint\` option to be a non-empty string or a function, got \`${String(hint)}\` (${typeof hint}).`);
  }
  if (options.session !== undefined && !(options.session instanceof Session)) {
    throw new TypeError('Expected the `session` option to be a Session from `createSession()` or `restoreSession()`.');
  }
  if (options.sessionStore !== undefined) {
    if (typeof (options.sessionStore as { withSession?: unknown }).withSession !== 'function') {
      throw new TypeError('Expected the `sessionStore` option to be a session store (`createFileSessionStore`, `createPostgresSessionStore`, `createRedisSessionStore`).');
    }
    if (options.session !== undefined) throw new TypeError('The `session` and `sessionStore` options both say where the session lives; give one of them.');
  }
  assertRequestStateKeys(options.requestStateKeys);
  if (options.onApproval !== undefined && typeof options.onApproval !== 'function') {
    throw new TypeError(`Expected the \`onApproval\` option to be a function, got \`${String(options.onApproval)}\` (${typeof options.onApproval}).`);
  }
  const timeout = options.elicitationTimeoutMs;
  if (timeout !== undefined && (!Number.isInteger(timeout) || timeout <= 0)) {
    throw new TypeError(`Expected the \`elicitationTimeoutMs\` option to be a positive integer, got \`${String(timeout)}\` (${typeof timeout}).`);
  }
  if (options.background !== undefined && (!Array.isArray(options.background) || options.background.some((name) => typeof name !== 'string'))) {
    throw new TypeError(`Expected the \`background\` option to be an array of tool names, got \`${JSON.stringify(options.background)}\`.`);
  }
  assertApprovalMode(options.mode);
  const ask = options.askForChanges;
  if (ask !== undefined && typeof ask !== 'boolean') {
    throw new TypeError(`Expected the \`askForChanges\` option to be a boolean, got \`${String(ask)}\` (${typeof ask}).`);
  }
  if (ask && (options.mode ?? 'ask') !== 'ask') {
    throw new TypeError(`The \`askForChanges\` option asks before every change, which mode \`${options.mode}\` decides otherwise; use it with mode \`ask\` or drop it.`);
  }
}
