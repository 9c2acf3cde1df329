/**
 * @module The file tools run where the files are. A workspace with the
 * {@link RunsFileToolsInPlace} capability (a remote workspace: its box runs the same
 * collection over its own local workspace) takes each tool's `checkPolicy` or `execute` as one
 * step, so a tool call costs one round trip instead of one per file operation. The part of the
 * session the tools read travels with the step, and what the step changed comes back as
 * changes the caller replays on its own session. `in-box-runner.ts` is the other half.
 */
import type { Session } from '../../../session.js';
import { defineTool, type ToolContext, type ToolDefinition, type ToolOutput } from '../../../tool.js';
import { isInside, type Workspace } from '../../../workspace/workspace.js';
import { forgetRead, readSnapshots, recordRead, type ReadSnapshot } from '../guard/read-state.js';
import { recordChange, undoRecordOf, type UndoChange, type UndoResult } from '../guard/undo.js';

/** One tool's step, as the box runs it: everything but the workspace and the live session. */
export interface FileToolStep {
  /** The collection the tool comes from; only the file tools run in place. */
  readonly collection: 'files';
  /** The collection's options without `workspace`: plain numbers, booleans and folder names. */
  readonly options: Readonly<Record<string, unknown>>;
  readonly tool: string;
  /** `check`: the tool's `checkPolicy`. `execute`: its `execute` (after the policy, with `checkFirst`). */
  readonly phase: 'check' | 'execute';
  /** With `phase: 'execute'`: run `checkPolicy` first and answer with its refusal, as `runTool` would have. */
  readonly checkFirst?: boolean;
  /** The input, already parsed with the tool's schema. */
  readonly input: Readonly<Record<string, unknown>>;
  readonly toolCallId: string;
  readonly session: SessionSlice;
  /** Set for a provider-shaped tool of the collection (`files.native`): which one, with its options. */
  readonly native?: NativeToolStep;
}

/** Which of `files.native` a step's tool is. */
export type NativeToolStep = { readonly tool: 'textEditor'; readonly options?: Readonly<Record<string, unknown>> } | { readonly tool: 'applyPatch' };

/** `files.undo(session)`, as the box runs it. */
export interface FileUndoStep {
  readonly collection: 'files';
  readonly options: Readonly<Record<string, unknown>>;
  readonly session: SessionSlice;
}

/**
 * The part of a session the file tools read, for one workspace root: the read snapshots of
 * files under the root (read-before-write, pages that add up), and for undo only the root's
 * undo record. Approvals, tasks and jobs never travel.
 */
export interface SessionSlice {
  readonly id: string;
  /** `files.reads` entries under the root, keyed by canonical path. */
  readonly reads: Readonly<Record<string, ReadSnapshot>>;
  /** The root's undo record; sent with {@link FileUndoStep} only (tools only add to it). */
  readonly undo?: unknown;
}

/**
 * What a step did to the session. Deltas, not whole maps: read tools run side by side, and
 * two parallel `read_file` calls must both leave their snapshot.
 */
export interface SessionChanges {
  /** Snapshots the step set, by path; replayed through `recordRead`, so pages read side by side still add up. */
  readonly readsSet: Readonly<Record<string, ReadSnapshot>>;
  readonly readsDeleted: readonly string[];
  /** Undo entries the step added to the current unit. */
  readonly undoAdded: readonly UndoChange[];
  /** After an undo: the root's whole undo record, which replaces the caller's. */
  readonly undo?: unknown;
}

/** How a step ended: the tool's output, the policy's verdict, or what it threw. */
export type StepOutcome =
  | { readonly type: 'output'; readonly output: ToolOutput }
  | { readonly type: 'checked'; readonly refusal?: string }
  | { readonly type: 'thrown'; readonly error: unknown };

/** A step's answer. */
export interface StepAnswer {
  readonly outcome: StepOutcome;
  readonly changes: SessionChanges;
}

/** Progress a step reports, already coalesced where it ran. */
export interface StepProgress {
  readonly output?: string;
  readonly message?: string;
  readonly progress?: number;
  readonly total?: number;
}

/**
 * A workspace capability (announced by `capabilities.runsFileToolsInPlace`): runs the file
 * tools' steps next to its files, each in one round trip. A remote workspace sends them to its
 * box, where `serve-workspace` runs the same collection over its local workspace.
 */
export interface RunsFileToolsInPlace {
  /** Runs one step; cancelling `signal` cancels it where it runs. */
  runFileToolStep(step: FileToolStep, options: { readonly signal?: AbortSignal; readonly onProgress?: (update: StepProgress) => void }): Promise<StepAnswer>;
  /** Runs `files.undo(session)` where the files are. */
  undoFileToolsInPlace(step: FileUndoStep): Promise<StepAnswer>;
}

/** The workspace's in-place runner, when it has one. */
export function fileToolsInPlace(workspace: Workspace): RunsFileToolsInPlace | undefined {
  if (workspace.capabilities.runsFileToolsInPlace !== true) return undefined;
  const runner = workspace as unknown as Partial<RunsFileToolsInPlace>;
  if (typeof runner.runFileToolStep !== 'function' || typeof runner.undoFileToolsInPlace !== 'function') return undefined;
  return runner as RunsFileToolsInPlace;
}

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
  const step = (session: Session, phase: FileToolStep['phase'], input: Record<string, unknown>, toolCallId: string, checkFirst: boolean): FileToolStep => ({
    collection: 'files',
    options,
    tool: tool.name,
    phase,
    ...(checkFirst ? { checkFirst } : {}),
    input,
    toolCallId,
    session: sessionSlice(session, workspace.root),
    ...(native === undefined ? {} : { native }),
  });
  const checkPolicy =
    tool.checkPolicy === undefined
      ? undefined
      : async (input: Record<string, unknown>, { session }: { session: Session }): Promise<string | undefined> => {
          const answer = await runner.runFileToolStep(step(session, 'check', input, '', false), {});
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
      const answer = await runner.runFileToolStep(step(context.session, 'execute', input, context.toolCallId, checkFirst), {
        signal: context.signal,
        ...(context.onProgress === undefined ? {} : { onProgress: context.onProgress }),
      });
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
  const slice = sessionSlice(session, workspace.root);
  const answer = await runner.undoFileToolsInPlace({ collection: 'files', options, session: { ...slice, undo: undoRecordOf(session, workspace) } });
  applySessionChanges(session, workspace, answer.changes);
  const { outcome } = answer;
  if (outcome.type === 'thrown') throw outcome.error;
  if (outcome.type !== 'output' || typeof outcome.output !== 'object') throw new TypeError(`Expected undo to answer with its result, got ${outcome.type}.`);
  const result = outcome.output as unknown as Omit<UndoResult, 'toString'>;
  return { ...result, toString: () => result.text };
}

/** The read snapshots of files under `root` (the box's canonical paths), for a step. */
export function sessionSlice(session: Session, root: string): SessionSlice {
  const reads: Record<string, ReadSnapshot> = {};
  for (const [key, snapshot] of Object.entries(readSnapshots(session))) if (isInside(root, key)) reads[key] = snapshot;
  return { id: session.id, reads };
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
