import type { TaskListStore } from './store.js';

/** Open tasks the injected view lists by name before it only counts the rest. */
export const DEFAULT_MAX_VISIBLE_ITEMS = 15;
/** Characters of a subject shown in the injected view; longer ones are cut with `…`. */
export const DEFAULT_MAX_SUBJECT_LENGTH = 80;
/** Characters the injected view may take, whatever the subjects: 50 tasks fit in under 1,000. */
export const DEFAULT_MAX_VIEW_CHARACTERS = 1000;

/** Options of {@link createTaskListTools}. */
export interface TaskListToolsOptions {
  /**
   * Where the list lives. Left out, each session keeps its own list in its state (saved and
   * restored with `session.toJSON()` / `restoreSession`). With a store, the collection keeps
   * one list, shared by every session, e.g. `new JsonFileTaskListStore('tasks.json')`.
   */
  readonly store?: TaskListStore;
  /**
   * Lets more than one task be in_progress at a time (for agents that run steps in parallel).
   * @default false
   */
  readonly allowMultipleInProgress?: boolean;
  /**
   * Open tasks listed by name in the view sent before each model call; the rest are counted.
   * @default 15
   */
  readonly maxVisibleItems?: number;
  /**
   * Characters of a subject shown in that view; line breaks are collapsed.
   * @default 80
   */
  readonly maxSubjectLength?: number;
  /**
   * Characters the whole view may take; tasks that do not fit are counted instead.
   * @default 1000
   */
  readonly maxViewCharacters?: number;
  /**
   * Sends the view before each model call. Turn it off to leave the list to `task_get`.
   * @default true
   */
  readonly context?: boolean;
  /**
   * Told when a stored list had to be recovered (a corrupt file moved aside) or repaired
   * (it broke a rule). The model is told as well, in its next reply.
   * @default a Node.js process warning (`process.emitWarning`)
   */
  readonly onNotice?: (message: string) => void;
}

/** The options after validation, with defaults applied. */
export interface ResolvedTaskListOptions {
  readonly store: TaskListStore | undefined;
  readonly allowMultipleInProgress: boolean;
  readonly maxVisibleItems: number;
  readonly maxSubjectLength: number;
  readonly maxViewCharacters: number;
  readonly context: boolean;
  readonly onNotice: (message: string) => void;
}

/** Checks the options once, when the collection is created; a message names the option at fault. */
export function resolveTaskListOptions(options: TaskListToolsOptions): ResolvedTaskListOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`Expected createTaskListTools to get an options object or nothing, got ${describeValue(options)}.`);
  }
  const { store } = options;
  if (store !== undefined && (typeof store !== 'object' || store === null || typeof store.load !== 'function' || typeof store.save !== 'function')) {
    throw new TypeError(`Expected the \`store\` option to be a task list store with \`load\` and \`save\` functions (e.g. \`new JsonFileTaskListStore(path)\`), got ${describeValue(store)}.`);
  }
  return {
    store,
    allowMultipleInProgress: booleanOption('allowMultipleInProgress', options.allowMultipleInProgress, false),
    maxVisibleItems: positiveInteger('maxVisibleItems', options.maxVisibleItems, DEFAULT_MAX_VISIBLE_ITEMS),
    maxSubjectLength: positiveInteger('maxSubjectLength', options.maxSubjectLength, DEFAULT_MAX_SUBJECT_LENGTH),
    maxViewCharacters: positiveInteger('maxViewCharacters', options.maxViewCharacters, DEFAULT_MAX_VIEW_CHARACTERS),
    context: booleanOption('context', options.context, true),
    onNotice: functionOption('onNotice', options.onNotice) ?? ((message) => process.emitWarning(message, { code: 'AGENT_TOOLBELT_TASK_LIST' })),
  };
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`Expected the \`${name}\` option to be a positive integer, got ${describeValue(value)}.`);
  }
  return value;
}

function booleanOption(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new TypeError(`Expected the \`${name}\` option to be true or false, got ${describeValue(value)}.`);
  return value;
}

function functionOption<F>(name: string, value: F | undefined): F | undefined {
  if (value !== undefined && typeof value !== 'function') {
    throw new TypeError(`Expected the \`${name}\` option to be a function, got ${describeValue(value)}.`);
  }
  return value;
}

/** `` `-1` (number) ``: a value and its type, for option messages. */
export function describeValue(value: unknown): string {
  if (value === null) return '`null`';
  if (typeof value === 'string') return `\`${value}\` (string)`;
  if (typeof value === 'object') return `${Array.isArray(value) ? 'an array' : 'an object'}`;
  if (typeof value === 'function') return 'a function';
  return `\`${String(value)}\` (${typeof value})`;
}
