/**
 * @module The box's half of running the file tools in place (see `in-box.ts`): builds the
 * same collection over the box's local workspace (one per set of options, kept), runs a
 * tool's `checkPolicy` or `execute` against a throwaway session holding the caller's slice,
 * and answers with the outcome and what the step changed in that session.
 */
import { formatInputError } from '../../../run-tool.js';
import { Session } from '../../../session.js';
import type { ProgressUpdate } from '../../../progress.js';
import type { ToolDefinition } from '../../../tool.js';
import type { Workspace } from '../../../workspace/workspace.js';
import type { FileToolCollection, FileToolsOptions } from '../index.js';
import type { FileToolStep, FileUndoStep, SessionChanges, SessionSlice, StepAnswer, StepOutcome } from '../../../workspace/in-place.js';
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
    const tool = this.#tool(step);
    const scratch = scratchSession(step.session, this.#workspace.root, undefined);
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
    const scratch = scratchSession(step.session, this.#workspace.root, step.session.undo);
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

/**
 * A session for one step, holding the caller's slice: read snapshots in an object that notes
 * every key set or deleted, and an undo record for the root (empty for tool steps, which only
 * add to it; the caller's own for undo).
 */
function scratchSession(slice: SessionSlice, root: string, undo: unknown) {
  if (typeof slice?.id !== 'string' || typeof slice.reads !== 'object' || slice.reads === null) {
    throw new TypeError('Expected the session slice to carry an `id` and a `reads` object.');
  }
  const session = new Session({ version: 1, id: slice.id, state: {}, approvals: [] });
  const set = new Set<string>();
  const deleted = new Set<string>();
  const reads: Record<string, ReadSnapshot> = { ...slice.reads };
  session.setState(
    READ_STATE_KEY,
    new Proxy(reads, {
      set(target, key, value) {
        if (typeof key === 'string') {
          set.add(key);
          deleted.delete(key);
        }
        return Reflect.set(target, key, value);
      },
      deleteProperty(target, key) {
        if (typeof key === 'string') {
          deleted.add(key);
          set.delete(key);
        }
        return Reflect.deleteProperty(target, key);
      },
    }),
  );
  const records: Record<string, { units: UndoChange[][] }> = { [root]: (undo as { units: UndoChange[][] } | undefined) ?? { units: [[]] } };
  session.setState(UNDO_STATE_KEY, records);
  return {
    session,
    undoRecord: () => records[root],
    changes(): SessionChanges {
      const readsSet: Record<string, ReadSnapshot> = {};
      for (const key of set) readsSet[key] = reads[key]!;
      return { readsSet, readsDeleted: [...deleted], undoAdded: undo === undefined ? (records[root]?.units.flat() ?? []) : [] };
    },
  };
}

function isUndoRecord(value: unknown): boolean {
  const units = (value as { units?: unknown } | null)?.units;
  return Array.isArray(units) && units.every((unit) => Array.isArray(unit));
}
