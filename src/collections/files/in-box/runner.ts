/**
 * @module The box's half of running the file tools in place (see `in-box.ts`): builds the
 * same collection over the box's local workspace (one per set of options, kept), runs a
 * tool's `checkPolicy` or `execute` against a throwaway session over the caller's read
 * snapshots (kept between the session's steps, `session-slices.ts`), and answers with the
 * outcome and what the step changed in that session.
 */
import { formatInputError } from '../../../run-tool.js';
import { Session } from '../../../session.js';
import type { ProgressUpdate } from '../../../progress.js';
import type { ToolDefinition } from '../../../tool.js';
import type { Workspace } from '../../../workspace/workspace.js';
import type { FileToolCollection, FileToolsOptions } from '../index.js';
import type { FileToolStep, FileUndoStep, SessionChanges, StepAnswer, StepOutcome } from '../../../workspace/in-place.js';
import { KeptSlices, layeredReads } from './session-slices.js';
import { READ_STATE_KEY } from '../guard/read-state.js';
import { UNDO_STATE_KEY } from '../guard/undo.js';
import type { ReadSnapshot, UndoChange } from '../../../workspace/in-place.js';

/** Collections kept, one per distinct set of options (a caller usually has one or two). */
const MAX_COLLECTIONS = 16;

/** Runs file tool steps for callers over one local workspace (the box's). */
export class FileToolRunner {
  readonly #workspace: Workspace;
  readonly #createFileTools: (options: FileToolsOptions) => FileToolCollection;
  readonly #collections = new Map<string, { collection: FileToolCollection; tools: Map<string, ToolDefinition<any>>; native: Map<string, ToolDefinition<any>> }>();
  /** The read snapshots of the callers' sessions, kept between their steps. */
  readonly #slices = new KeptSlices();

  /**
   * `createFileTools` is the package's own (the dialects add the provider-shaped tools), handed
   * in by the box server, which stands above both.
   */
  constructor(workspace: Workspace, createFileTools: (options: FileToolsOptions) => FileToolCollection) {
    this.#workspace = workspace;
    this.#createFileTools = createFileTools;
  }

  /**
   * Runs one step. A tool's expected failure (a `ToolError`) and a bug alike come back as
   * `thrown`, with the session changes made before it, so the caller's `runTool` turns it into
   * the same result a local call gives.
   *
   * @throws {TypeError} when the step names a collection or tool there is none of, or its options are wrong.
   */
  async run(step: FileToolStep, context: { readonly signal: AbortSignal; readonly onProgress?: (update: ProgressUpdate) => void }): Promise<StepAnswer> {
    const reads = this.#slices.take(step.session);
    if (reads === undefined) return RESEND;
    const tool = this.#tool(step);
    const scratch = scratchSession(step.session.id, reads, this.#workspace.root, undefined);
    // The caller parsed the input already; the box trusts it with nothing, so it parses again.
    const parsed = tool.input.safeParse(step.input);
    if (!parsed.success) throw new TypeError(formatInputError(tool.name, parsed.error));
    const input = parsed.data as Record<string, unknown>;
    let outcome: StepOutcome;
    try {
      if (step.phase === 'check' || step.checkFirst === true) {
        const refusal = await tool.checkPolicy?.(input, { session: scratch.session });
        if (step.phase === 'check' || refusal !== undefined) return { outcome: refusal === undefined ? { type: 'checked' } : { type: 'checked', refusal }, changes: scratch.changes() };
      }
      const output = await tool.execute(input, {
        toolCallId: step.toolCallId,
        signal: context.signal,
        session: scratch.session,
        ...(context.onProgress === undefined ? {} : { onProgress: context.onProgress }),
      });
      outcome = { type: 'output', output };
    } catch (error) {
      outcome = { type: 'thrown', error };
    }
    return { outcome, changes: scratch.changes() };
  }

  /** Runs `files.undo(session)` with the caller's undo record; answers with the result and the record after it. */
  async undo(step: FileUndoStep): Promise<StepAnswer> {
    const { collection } = this.#collection(step);
    if (step.session.undo !== undefined && !isUndoRecord(step.session.undo)) throw new TypeError('Expected the undo record to be an object with `units`, an array of arrays of changes.');
    const reads = this.#slices.take(step.session);
    if (reads === undefined) return RESEND;
    const scratch = scratchSession(step.session.id, reads, this.#workspace.root, step.session.undo);
    let outcome: StepOutcome;
    try {
      const { toString: _toString, ...result } = await collection.undo(scratch.session);
      outcome = { type: 'output', output: result as never };
    } catch (error) {
      outcome = { type: 'thrown', error };
    }
    return { outcome, changes: { ...scratch.changes(), undoAdded: [], undo: scratch.undoRecord() } };
  }

  #collection(step: Pick<FileToolStep, 'collection' | 'options'>) {
    if (step.collection !== 'files') throw new TypeError(`Expected the collection \`files\`, got ${JSON.stringify(step.collection)}: only the file tools run in the box.`);
    const key = JSON.stringify(step.options);
    let found = this.#collections.get(key);
    if (found === undefined) {
      const collection = this.#createFileTools({ ...(step.options as object), workspace: this.#workspace });
      found = { collection, tools: new Map(collection.tools.map((tool) => [tool.name, tool])), native: new Map() };
      if (this.#collections.size >= MAX_COLLECTIONS) this.#collections.delete(this.#collections.keys().next().value!);
      this.#collections.set(key, found);
    }
    return found;
  }

  #tool(step: FileToolStep): ToolDefinition<any> {
    const found = this.#collection(step);
    let tool: ToolDefinition<any> | undefined;
    if (step.native === undefined) tool = found.tools.get(step.tool);
    else {
      const key = JSON.stringify(step.native);
      tool = found.native.get(key);
      if (tool === undefined) {
        tool = step.native.tool === 'textEditor' ? found.collection.native.textEditor(step.native.options) : found.collection.native.applyPatch;
        found.native.set(key, tool);
      }
      if (tool.name !== step.tool) tool = undefined;
    }
    if (tool === undefined) throw new TypeError(`The file tools in the box have no tool named ${JSON.stringify(step.tool)}. Install the same agent-toolbelt version in the box as on the caller.`);
    return tool;
  }
}

/** The answer to a step whose slice builds on snapshots the box no longer keeps. */
const RESEND: StepAnswer = { outcome: { type: 'resend-slice' }, changes: { readsSet: {}, readsDeleted: [], undoAdded: [] } };

/**
 * A session for one step, holding the caller's snapshots under a layer that keeps what the
 * step set or deleted to itself, and an undo record for the root (empty for tool steps, which
 * only add to it; the caller's own for undo).
 */
function scratchSession(id: string, kept: ReadonlyMap<string, ReadSnapshot>, root: string, undo: unknown) {
  const session = new Session({ version: 1, id, state: {}, approvals: [] });
  const { view, set, deleted } = layeredReads(kept);
  session.setState(READ_STATE_KEY, view);
  const records: Record<string, { units: UndoChange[][] }> = { [root]: (undo as { units: UndoChange[][] } | undefined) ?? { units: [[]] } };
  session.setState(UNDO_STATE_KEY, records);
  return {
    session,
    undoRecord: () => records[root],
    changes(): SessionChanges {
      const readsSet = Object.fromEntries(set);
      return { readsSet, readsDeleted: [...deleted], undoAdded: undo === undefined ? (records[root]?.units.flat() ?? []) : [] };
    },
  };
}

function isUndoRecord(value: unknown): boolean {
  const units = (value as { units?: unknown } | null)?.units;
  return Array.isArray(units) && units.every((unit) => Array.isArray(unit));
}
