/**
 * @module The file tools run where the files are. A workspace with the
 * {@link RunsFileToolsInPlace} capability (a remote workspace: its box runs the same
 * collection over its own local workspace) takes each tool's `checkPolicy` or `execute` as one
 * step, so a tool call costs one round trip instead of one per file operation. The part of the
 * session the tools read travels with the step (what changed since the session's last step:
 * the box keeps the rest, `session-slices.ts`), and what the step changed comes back as
 * changes the caller replays on its own session. `runner.ts`, the box end, is the other half; the shapes of the steps are the workspace's (`workspace/in-place.ts`).
 */
import type { Session } from '../../../session.js';
import { defineTool, type ToolContext, type ToolDefinition, type ToolOutput } from '../../../tool.js';
import type { Workspace } from '../../../workspace/workspace.js';
import { forgetRead, recordRead } from '../guard/read-state.js';
import { recordChange, undoRecordOf, type UndoResult } from '../guard/undo.js';
import type { FileToolStep, NativeToolStep, ReadSnapshot, RunsFileToolsInPlace, SessionChanges, SessionSlice, StepAnswer, StepOutcome } from '../../../workspace/in-place.js';
import { SliceSender } from './session-slices.js';

/** The collection's options as they travel: everything but the workspace. */
export function stepOptions(options: object): Record<string, unknown> {
  const { workspace: _workspace, ...rest } = options as Record<string, unknown>;
  return rest;
}

/**
 * The tools with `checkPolicy` and `execute` run by `runner`, each one step: what the model
 * sees (names, descriptions, schemas), approval defaults and approval prompts stay the
 * caller's, computed from the input alone. `execute` runs the policy first, in the same
 * step, unless `checkPolicy` already passed for this very input object (`runTool` hands
 * `execute` the object it checked); so the tools carry `executeChecksPolicy`, and a call that
 * nobody is asked about costs one round trip, with the same result as the local tools give.
 */
export function runToolsInPlace(
  tools: readonly ToolDefinition<any>[],
  options: Readonly<Record<string, unknown>>,
  workspace: Workspace,
  runner: RunsFileToolsInPlace,
): ToolDefinition<any>[] {
  return tools.map((tool) => runToolInPlace(tool, options, workspace, runner));
}

/** One tool run by `runner`, as {@link runToolsInPlace} does; `native` names a tool of `files.native`. */
export function runToolInPlace(
  tool: ToolDefinition<any>,
  options: Readonly<Record<string, unknown>>,
  workspace: Workspace,
  runner: RunsFileToolsInPlace,
  native?: NativeToolStep,
): ToolDefinition<any> {
  /** Inputs whose policy check passed and whose execute has not run yet. */
  const checked = new WeakSet<object>();
  const step = (slice: SessionSlice, phase: FileToolStep['phase'], input: Record<string, unknown>, toolCallId: string, checkFirst: boolean): FileToolStep => ({
    collection: 'files',
    options,
    tool: tool.name,
    phase,
    ...(checkFirst ? { checkFirst } : {}),
    input,
    toolCallId,
    session: slice,
    ...(native === undefined ? {} : { native }),
  });
  const checkPolicy =
    tool.checkPolicy === undefined
      ? undefined
      : async (input: Record<string, unknown>, { session }: { session: Session }): Promise<string | undefined> => {
          const answer = await withSlice(runner, workspace, session, (slice) => runner.runFileToolStep(step(slice, 'check', input, '', false), {}));
          applySessionChanges(session, workspace, answer.changes);
          const { outcome } = answer;
          if (outcome.type === 'thrown') throw outcome.error;
          if (outcome.type !== 'checked') throw new TypeError(`Expected the policy check of ${tool.name} to answer with a verdict, got ${outcome.type}.`);
          if (outcome.refusal === undefined) checked.add(input);
          return outcome.refusal;
        };
  return defineTool({
    ...tool,
    ...(checkPolicy === undefined ? {} : { checkPolicy, executeChecksPolicy: true }),
    async execute(input: Record<string, unknown>, context: ToolContext): Promise<ToolOutput> {
      const checkFirst = checkPolicy !== undefined && !checked.has(input);
      checked.delete(input);
      const answer = await withSlice(runner, workspace, context.session, (slice) =>
        runner.runFileToolStep(step(slice, 'execute', input, context.toolCallId, checkFirst), {
          signal: context.signal,
          ...(context.onProgress === undefined ? {} : { onProgress: context.onProgress }),
        }),
      );
      applySessionChanges(context.session, workspace, answer.changes);
      const { outcome } = answer;
      if (outcome.type === 'thrown') throw outcome.error;
      // The policy refused: the same result runTool gives for a refusal before the call runs.
      if (outcome.type === 'checked') return { text: outcome.refusal ?? `${tool.name} was refused.`, isError: true };
      return outcome.output;
    },
  });
}

/** `files.undo(session)` run where the files are, its changes replayed here. */
export async function undoInPlace(session: Session, workspace: Workspace, runner: RunsFileToolsInPlace, options: Readonly<Record<string, unknown>>): Promise<UndoResult> {
  const answer = await withSlice(runner, workspace, session, (slice) =>
    runner.undoFileToolsInPlace({ collection: 'files', options, session: { ...slice, undo: undoRecordOf(session, workspace) } }),
  );
  applySessionChanges(session, workspace, answer.changes);
  const { outcome } = answer;
  if (outcome.type === 'thrown') throw outcome.error;
  if (outcome.type !== 'output' || typeof outcome.output !== 'object') throw new TypeError(`Expected undo to answer with its result, got ${outcome.type}.`);
  const result = outcome.output as unknown as Omit<UndoResult, 'toString'>;
  return { ...result, toString: () => result.text };
}

/** One sender a runner: the box keeps its sessions' snapshots per connection, whichever tool sent them. */
const senders = new WeakMap<RunsFileToolsInPlace, SliceSender>();

/**
 * Sends a step with the session's read snapshots under the root (the box's canonical paths),
 * as the changes since its last step; when the box no longer keeps what those build on, sends
 * it once more with every snapshot.
 */
async function withSlice(runner: RunsFileToolsInPlace, workspace: Workspace, session: Session, send: (slice: SessionSlice) => Promise<StepAnswer>): Promise<RanStep> {
  let slices = senders.get(runner);
  if (slices === undefined) senders.set(runner, (slices = new SliceSender(workspace.root)));
  const answer = await send(slices.next(session));
  if (ran(answer)) return answer;
  const again = await send(slices.next(session, { whole: true }));
  if (ran(again)) return again;
  throw new TypeError('The box asked for the session’s read snapshots again after it was sent all of them.');
}

/** An answer to a step that ran. */
type RanStep = StepAnswer & { readonly outcome: Exclude<StepOutcome, { readonly type: 'resend-slice' }> };

function ran(answer: StepAnswer): answer is RanStep {
  return answer.outcome.type !== 'resend-slice';
}

/**
 * Replays a step's changes on the caller's session: snapshots through `recordRead` (so a page
 * read side by side with another page of the same unchanged file still adds up to a whole
 * read), deletions, undo entries into the current unit, or the whole record after an undo.
 */
export function applySessionChanges(session: Session, workspace: Workspace, changes: SessionChanges): void {
  for (const [key, snapshot] of Object.entries(changes.readsSet)) replayRead(session, key, snapshot);
  for (const key of changes.readsDeleted) forgetRead(session, key);
  if (changes.undo !== undefined) undoRecordOf(session, workspace, changes.undo);
  for (const change of changes.undoAdded) recordChange(session, workspace, change);
}

function replayRead(session: Session, key: string, snapshot: ReadSnapshot): void {
  if (snapshot.whole) return recordRead(session, key, snapshot, true);
  const ranges = snapshot.ranges ?? [];
  if (ranges.length === 0) return recordRead(session, key, snapshot, false);
  for (const [from, to] of ranges) recordRead(session, key, snapshot, { from, to, reachedEnd: to === snapshot.lastLine });
}
