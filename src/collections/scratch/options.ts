import type { Workspace } from '../../workspace/workspace.js';

/** Options of {@link createScratchTools}. */
export interface ScratchToolsOptions {
  /** The workspace whose private folder `.toolbelt/` holds the notes and the session log. */
  readonly workspace: Workspace;
  /**
   * The clock behind the log's timestamps and the notes' "updated" times; tests pass a fixed one.
   * @default () => new Date()
   */
  readonly now?: () => Date;
}

/** The options after validation, with defaults applied. */
export interface ResolvedScratchToolsOptions {
  readonly workspace: Workspace;
  readonly now: () => Date;
}

/** Checks the options once, when the collection is created; a message names the option at fault. */
export function resolveScratchToolsOptions(options: ScratchToolsOptions): ResolvedScratchToolsOptions {
  const workspace = (options as Partial<ScratchToolsOptions> | undefined)?.workspace;
  if (typeof workspace !== 'object' || workspace === null || typeof workspace.privateDir !== 'function') {
    throw new TypeError(`Expected the \`workspace\` option to be a Workspace, got ${describeValue(workspace)}.`);
  }
  const now = options.now ?? (() => new Date());
  if (typeof now !== 'function') {
    throw new TypeError(`Expected the \`now\` option to be a function that returns a Date, got ${describeValue(now)}.`);
  }
  return { workspace, now };
}

function describeValue(value: unknown): string {
  if (value === null) return '`null`';
  if (typeof value === 'string') return `\`${JSON.stringify(value)}\` (string)`;
  if (typeof value === 'object') return `\`${Object.prototype.toString.call(value)}\` (object)`;
  return `\`${String(value)}\` (${typeof value})`;
}
