import { ToolError } from '../../errors/tool-error.js';
import type { Session } from '../../session.js';
import { repairList } from './repair.js';
import type { RuleOptions } from './rules.js';
import type { TaskListStore } from './store.js';
import { parseStoredList, toStoredList } from './stored-list.js';
import { draftOf, emptyList, type DraftList, type TaskListSnapshot } from './task.js';

/** The key of the list in a session's state, so it travels with `session.toJSON()`. */
export const SESSION_STATE_KEY = 'tasks';
const SESSION_QUEUE_KEY = 'tasks.queue';

/** Runs tasks one after another: calls on one list never interleave. */
type SerialQueue = <T>(task: () => Promise<T>) => Promise<T>;

function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>) => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** Runs a store's load or save; its failure becomes an error the model can read, not a crash. */
async function storeStep<T>(verb: 'read' | 'saved', step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolError(`The task list could not be ${verb} (${reason}), so nothing was changed. Go on without the task list, and tell the user.`, { cause: error });
  }
}

/** Queues of stores, so even two collections sharing one store never interleave. */
const storeQueues = new WeakMap<TaskListStore, SerialQueue>();

/** What a call saw when it opened the list. */
export interface OpenedList {
  /** A private copy: change it and return `save: true` to keep the changes. */
  readonly draft: DraftList;
  /** How the stored list was recovered or repaired while loading, for the model. */
  readonly notes: readonly string[];
}

/**
 * Loads, repairs, changes and saves a task list, one call at a time: in the session's state
 * by default, or in a {@link TaskListStore}. A change is made on a copy and saved only when
 * the work returns, so a refusal (a thrown error) leaves the list as it was.
 */
export class TaskListAccess {
  readonly #store: TaskListStore | undefined;
  readonly #rules: RuleOptions;
  readonly #onNotice: (message: string) => void;

  constructor(options: { store: TaskListStore | undefined; rules: RuleOptions; onNotice: (message: string) => void }) {
    this.#store = options.store;
    this.#rules = options.rules;
    this.#onNotice = options.onNotice;
  }

  /** Runs `work` on a copy of the list; saves the copy when it returns `save: true`. */
  async use<T>(session: Session, work: (opened: OpenedList) => { value: T; save: boolean }): Promise<T> {
    return this.#queue(session)(async () => {
      const { list, notes } = await storeStep('read', () => this.#load(session));
      if (notes.length > 0) {
        await storeStep('saved', () => this.#save(session, list));
        this.#onNotice(`agent-toolbelt task list: ${notes.join('; ')}.`);
      }
      const draft = draftOf(list);
      const { value, save } = work({ draft, notes });
      if (save) await storeStep('saved', () => this.#save(session, draft));
      return value;
    });
  }

  #queue(session: Session): SerialQueue {
    if (this.#store === undefined) return session.live(SESSION_QUEUE_KEY, createSerialQueue);
    let queue = storeQueues.get(this.#store);
    if (queue === undefined) {
      queue = createSerialQueue();
      storeQueues.set(this.#store, queue);
    }
    return queue;
  }

  async #load(session: Session): Promise<{ list: TaskListSnapshot; notes: string[] }> {
    let stored: TaskListSnapshot;
    const notes: string[] = [];
    if (this.#store === undefined) {
      const value = session.state<unknown>(SESSION_STATE_KEY, () => undefined);
      if (value === undefined) return { list: emptyList(), notes };
      const parsed = parseStoredList(value);
      if ('problem' in parsed) {
        notes.push(`the task list in the session could not be read (${parsed.problem}), so it started empty`);
        return { list: emptyList(), notes };
      }
      stored = parsed.list;
    } else {
      const loaded = await this.#store.load();
      if (loaded === undefined) return { list: emptyList(), notes };
      notes.push(...(loaded.notes ?? []));
      stored = { nextId: loaded.nextId, tasks: loaded.tasks };
    }
    const repaired = repairList(stored, this.#rules);
    if (repaired.notes.length > 0) notes.push(`the stored list broke the rules and was repaired: ${repaired.notes.join('; ')}`);
    return { list: repaired.list, notes };
  }

  async #save(session: Session, list: TaskListSnapshot): Promise<void> {
    if (this.#store === undefined) session.setState(SESSION_STATE_KEY, structuredClone(toStoredList(list)));
    else await this.#store.save({ nextId: list.nextId, tasks: list.tasks });
  }
}
