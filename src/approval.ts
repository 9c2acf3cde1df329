import type { ApprovalRule, ToolDefinition, ToolKind } from './tool.js';
import type { Session } from './session.js';

/**
 * How much a host lets tools run unasked.
 * - `ask`: each tool's default (writing, deleting and running ask; reading never does).
 * - `accept-edits`: `edit` and `move` tools run unasked; the rest as in `ask`.
 * - `plan`: `edit`, `delete`, `move` and `execute` tools are refused; the rest as in `ask`.
 * - `auto`: nothing asks.
 */
export type ApprovalMode = 'ask' | 'accept-edits' | 'plan' | 'auto';

export const APPROVAL_MODES: readonly ApprovalMode[] = ['ask', 'accept-edits', 'plan', 'auto'];

/** What the host is asked. */
export interface ApprovalRequest {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly kind: ToolKind;
  /** The parsed input the tool will run with. */
  readonly input: Record<string, unknown>;
  /** One line for the prompt, e.g. `Run: npm test`. */
  readonly description: string;
  /** False when "always" cannot be remembered for this call (a chained shell command). */
  readonly canAlwaysApprove: boolean;
}

/** A person's answer. `edit` approves the call with changed arguments. */
export type ApprovalDecision =
  | 'approve'
  | 'always'
  | 'deny'
  | { readonly type: 'deny'; readonly reason?: string }
  | { readonly type: 'edit'; readonly input: Record<string, unknown> };

/** Asks a person; answers when they have decided. */
export type ApproveFunction = (request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>;

/** Per-tool overrides of the approval default, by tool name. */
export type ApprovalOverrides = Readonly<Record<string, ApprovalRule>>;

const PLAN_REFUSED: readonly ToolKind[] = ['edit', 'delete', 'move', 'execute'];
const ACCEPT_EDITS_RUN: readonly ToolKind[] = ['edit', 'move'];

/** What happens to a call before it runs. */
export type ApprovalVerdict = { readonly type: 'run' } | { readonly type: 'ask' } | { readonly type: 'refuse'; readonly text: string };

/**
 * Decides from the mode, the tool's kind, the host's overrides, the tool's default and the
 * session's "always" decisions whether a call runs, asks or is refused.
 */
export async function decideApproval(
  tool: ToolDefinition<any>,
  input: Record<string, unknown>,
  options: { session: Session; mode?: ApprovalMode; overrides?: ApprovalOverrides },
): Promise<ApprovalVerdict> {
  const mode = options.mode ?? 'ask';
  const kind = tool.kindOf?.(input) ?? tool.kind;
  if (mode === 'plan' && PLAN_REFUSED.includes(kind)) {
    return {
      type: 'refuse',
      text: `${tool.name} is not available in plan mode: ${kind} tools are switched off until the user leaves plan mode. Describe the change you would make instead.`,
    };
  }
  if (mode === 'auto') return { type: 'run' };
  if (mode === 'accept-edits' && ACCEPT_EDITS_RUN.includes(kind)) return { type: 'run' };

  const rule = options.overrides?.[tool.name] ?? tool.needsApproval ?? false;
  const needed = typeof rule === 'function' ? await rule(input, { session: options.session }) : rule;
  if (!needed) return { type: 'run' };

  const key = approvalKeyOf(tool, input);
  if (key !== undefined && options.session.isApproved(key)) return { type: 'run' };
  return { type: 'ask' };
}

/** The key an "always" decision for this call is remembered under, or `undefined` when it must not be. */
export function approvalKeyOf(tool: ToolDefinition<any>, input: Record<string, unknown>): string | undefined {
  if (tool.approvalKey === undefined) return tool.name;
  const key = tool.approvalKey(input);
  return key === undefined ? undefined : `${tool.name}:${key}`;
}

/** Remembers an "always" decision in the session. Returns false when this call cannot be remembered. */
export function rememberApproval(session: Session, tool: ToolDefinition<any>, input: Record<string, unknown>): boolean {
  const key = approvalKeyOf(tool, input);
  if (key === undefined) return false;
  session.approve(key);
  return true;
}

/** The request a host is shown. */
export function approvalRequest(
  tool: ToolDefinition<any>,
  input: Record<string, unknown>,
  toolCallId: string,
): ApprovalRequest {
  return {
    toolName: tool.name,
    toolCallId,
    kind: tool.kindOf?.(input) ?? tool.kind,
    input,
    description: tool.describeCall?.(input) ?? `${tool.name} ${JSON.stringify(input)}`,
    canAlwaysApprove: approvalKeyOf(tool, input) !== undefined,
  };
}

/** The text the model reads when a person said no. */
export function denialText(toolName: string, reason?: string): string {
  const text = `Action denied by the user: ${toolName} was not run. Do not retry the same call; ask or change approach.`;
  const trimmed = reason?.trim();
  return trimmed ? `${text} The user said: ${trimmed}` : text;
}

/** The text the model reads when a call needs approval and the host has no way to ask. */
export function noApproverText(toolName: string): string {
  return `${toolName} needs the user's approval and this host cannot ask for it, so it was not run. Tell the user what you wanted to do and let them run it, or use a tool that needs no approval.`;
}

/**
 * The text the model reads when a call that needs approval reached its execution without the
 * person having been asked, in hosts that decide about approval before running a batch of
 * calls (the AI SDK's flow). `checkedEarly`: when the batch was checked, the call's policy
 * refused it, and a call before it has since made it possible, so calling it again gets the
 * question asked; otherwise the host's own settings skipped the question.
 */
export function notAskedText(toolName: string, checkedEarly: boolean): string {
  if (checkedEarly) {
    return `${toolName} needs the user's approval, and it was not asked: when the calls of this step were checked, ${toolName} could not have run yet, and a call before it has changed that since. It was not run; call ${toolName} again and the user will be asked.`;
  }
  return `${toolName} needs the user's approval, and the user was not asked about this call, so it was not run. Tell the user what you wanted to do and let them run it, or use a tool that needs no approval.`;
}

/**
 * Validates a host's per-tool approval overrides against the tools it hands out: each key
 * must name one of them (a misspelt name would silently leave that tool's default in place,
 * so a call the host meant to ask about would run unasked) and each rule must be `true`,
 * `false` or a function of the input.
 */
export function assertApprovalOverrides(
  overrides: unknown,
  toolNames: Iterable<string>,
  optionName = 'needsApproval',
): asserts overrides is ApprovalOverrides | undefined {
  if (overrides === undefined) return;
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) {
    throw new TypeError(
      `Expected the \`${optionName}\` option to map tool names to true, false or a function of the input, got \`${String(overrides)}\` (${typeof overrides}).`,
    );
  }
  const known = [...toolNames];
  for (const [name, rule] of Object.entries(overrides)) {
    if (!known.includes(name)) {
      throw new TypeError(
        `Expected \`${optionName}\` to name tools of the collections, got \`${name}\`; the tools are ${known.join(', ')}. A misspelt name would leave that tool's default in place.`,
      );
    }
    if (typeof rule !== 'boolean' && typeof rule !== 'function') {
      throw new TypeError(`Expected \`${optionName}.${name}\` to be true, false or a function of the input, got \`${String(rule)}\` (${typeof rule}).`);
    }
  }
}

/** Validates a host's approval mode option. */
export function assertApprovalMode(mode: unknown, optionName = 'mode'): asserts mode is ApprovalMode | undefined {
  if (mode !== undefined && !APPROVAL_MODES.includes(mode as ApprovalMode)) {
    throw new TypeError(
      `Expected the \`${optionName}\` option to be one of ${APPROVAL_MODES.map((m) => `'${m}'`).join(', ')}, got \`${String(mode)}\`.`,
    );
  }
}
