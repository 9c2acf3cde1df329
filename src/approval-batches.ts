/**
 * Approval decisions for a batch of calls taken before any of them runs. The AI SDK asks
 * whether each call of a model step needs approval first and runs the step's calls after, so
 * `read_file` then `write_file` on the same file is decided while the file is still unread:
 * the write's policy refuses it, nobody is asked, and when it runs after the read it needs an
 * approval it never got. Here a call the policy refuses is asked about instead when an earlier
 * call of the batch, still to run, may meet the policy; and a call that reaches its execution
 * needing an approval nobody asked for is told why, and whether calling again helps.
 * @module
 */
import type { ApprovalRequest } from './approval.js';
import type { PreparedCall } from './run-tool.js';
import type { Session } from './session.js';
import type { ToolDefinition, ToolKind } from './tool.js';

/** Strings longer than this are content, not the path or name a later call may share. */
const MAX_COMPARED_VALUE_LENGTH = 4_096;
/** Fields whose names say they hold paths (`path`, `file_path`, `paths`, `source`, `destination`, `cwd`…). */
const PATH_FIELD = /path|file|folder|dir|source|destination|target|cwd/i;
/** Decisions remembered for the execution-time wording; the oldest are forgotten first. */
const MAX_REMEMBERED_CALLS = 1_000;

/** What was decided about one call when its batch was checked. */
type Decision = 'runs' | 'asked' | 'asked-ahead' | 'refused' | 'refused-checked-early';

interface CheckedCall {
  readonly toolCallId: string;
  readonly kind: ToolKind;
  readonly values: ReadonlySet<string>;
  readonly decision: Decision;
  finished: boolean;
}

/**
 * The batches of one session. A batch is any object the host hands over for every call of one
 * step (the AI SDK's `messages` array of the step); without one, each call stands alone.
 */
export class ApprovalBatches {
  readonly #batches = new WeakMap<object, CheckedCall[]>();
  readonly #calls = new Map<string, CheckedCall>();

  /**
   * Records the decision about one call of `batch` and returns what to ask the person, or
   * `undefined` when the call runs unasked or is refused. A call the policy refused, but that
   * would otherwise ask, is asked about when an earlier call of the batch that is still to run
   * may meet the policy ({@link mayMeetPolicy}); its policy is checked again when it runs.
   */
  decide(batch: object | undefined, toolCallId: string, tool: ToolDefinition<any>, prepared: PreparedCall): ApprovalRequest | undefined {
    const calls = batch === undefined ? [] : this.#batchOf(batch);
    const { decision, request, input } = decisionOf(prepared, calls);
    const checked: CheckedCall = { toolCallId, kind: request?.kind ?? kindOf(tool, input), values: valuesOf(input), decision, finished: false };
    calls.push(checked);
    this.#remember(checked);
    return request;
  }

  /**
   * Whether the call was refused by its policy when its batch was checked, and would have
   * been asked about otherwise: if it needs approval now, an earlier call met the policy
   * after the check, and calling it again gets the question asked.
   */
  refusedWhenChecked(toolCallId: string): boolean {
    return this.#calls.get(toolCallId)?.decision === 'refused-checked-early';
  }

  /** Marks the call as run (or done with): it can no longer meet a later call's policy. */
  finished(toolCallId: string): void {
    const checked = this.#calls.get(toolCallId);
    if (checked === undefined) return;
    checked.finished = true;
    this.#calls.delete(toolCallId);
  }

  #batchOf(batch: object): CheckedCall[] {
    let calls = this.#batches.get(batch);
    if (calls === undefined) this.#batches.set(batch, (calls = []));
    return calls;
  }

  #remember(checked: CheckedCall): void {
    this.#calls.delete(checked.toolCallId);
    this.#calls.set(checked.toolCallId, checked);
    if (this.#calls.size > MAX_REMEMBERED_CALLS) this.#calls.delete(this.#calls.keys().next().value!);
  }
}

/** The decision about a prepared call, given the calls of its batch checked before it. */
function decisionOf(prepared: PreparedCall, earlier: readonly CheckedCall[]): { decision: Decision; request?: ApprovalRequest; input?: unknown } {
  if (prepared.status === 'needs-approval') return { decision: 'asked', request: prepared.request, input: prepared.input };
  if (prepared.status === 'ready') return { decision: 'runs', input: prepared.input };
  const request = prepared.refusedRequest;
  if (request === undefined) return { decision: 'refused' };
  const values = valuesOf(request.input);
  const ahead = earlier.some((call) => !call.finished && call.decision !== 'refused' && call.decision !== 'refused-checked-early' && mayMeetPolicy(call, values));
  return ahead ? { decision: 'asked-ahead', request, input: request.input } : { decision: 'refused-checked-early', input: request.input };
}

/** The session's batches. */
export function approvalBatchesOf(session: Session): ApprovalBatches {
  return session.live('approval-batches', () => new ApprovalBatches());
}

/**
 * Whether `earlier`, a call still to run, may meet the policy that refused a call naming the
 * paths `values`: it runs commands (kind `execute`, which may do anything), or it names one of
 * the same paths in a field whose name says so (`path`, `file_path`, `source`, …): the
 * `read_file` a `write_file` needs, the `create_file` an `edit_file` needs. Anything else,
 * such as a read of another file, cannot help.
 */
export function mayMeetPolicy(earlier: { readonly kind: ToolKind; readonly values: ReadonlySet<string> }, values: ReadonlySet<string>): boolean {
  if (earlier.kind === 'execute') return true;
  for (const value of earlier.values) if (values.has(value)) return true;
  return false;
}

function kindOf(tool: ToolDefinition<any>, input: unknown): ToolKind {
  if (input === undefined || tool.kindOf === undefined) return tool.kind;
  try {
    return tool.kindOf(input as Record<string, unknown>);
  } catch {
    return tool.kind;
  }
}

/** The short strings of an input under fields that name paths, at any depth, as paths compare: `./src/a.ts` and `src/a.ts/` are `src/a.ts`. */
function valuesOf(input: unknown, depth = 0, found = new Set<string>(), named = false): Set<string> {
  if (typeof input === 'string') {
    const value = input.trim().replace(/^(?:\.\/)+/, '').replace(/\/+$/, '');
    if (named && value !== '' && value.length <= MAX_COMPARED_VALUE_LENGTH) found.add(value);
  } else if (depth < 4 && Array.isArray(input)) {
    for (const item of input) valuesOf(item, depth + 1, found, named);
  } else if (depth < 4 && typeof input === 'object' && input !== null) {
    for (const [field, item] of Object.entries(input)) valuesOf(item, depth + 1, found, named || PATH_FIELD.test(field));
  }
  return found;
}
