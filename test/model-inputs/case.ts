/**
 * The shape of one model-inputs case: a call as a model really sends it (another harness's
 * field names, strings for numbers, odd paths, near-miss edits), the repository it meets, and
 * what must come of it. Cases are data, grouped by area in `cases/`; `runner.ts` runs every
 * one through the core and through each adapter's own entry point and classifies the reply.
 */

/** The files of the repository before the call, by path relative to the root; `null` for a folder. */
export type RepositoryFiles = Readonly<Record<string, string | null>>;

/** What must come of a case. */
export type ExpectedOutcome =
  /**
   * (a) Salvaged: the call did what the model meant. `disk` lists the files the call must
   * leave (content, or `null` for "must not exist"); every other file stays as it was.
   * `reply` must appear in the result text (a string is matched as a substring).
   */
  | { readonly outcome: 'salvaged'; readonly reply?: string | RegExp; readonly disk?: Readonly<Record<string, string | null>> }
  /**
   * (b) Refused, nothing changed, and the reply names the exact fix: `fix` must appear in the
   * result text, and it must be what tells the model its next call (the field, the value, or
   * the path to send), not a general hint.
   */
  | { readonly outcome: 'refused'; readonly fix: string | RegExp };

export interface ModelInputCase {
  /** What the model did, in a few words: "Claude Code's `file_path` for `path`". */
  readonly name: string;
  /** Where such calls are reported (an issue, a harness's documented field), when there is one. */
  readonly source?: string;
  readonly tool: string;
  /** The arguments as the model sent them: an object, or the raw JSON text of one. */
  readonly input: unknown;
  /** Files added to (or, as `null` under `remove`, taken from) the shared repository (`repository.ts`). */
  readonly files?: RepositoryFiles;
  /** Calls made first, as a well-behaved model would (a `read_file` before an edit); each must succeed. */
  readonly before?: readonly { readonly tool: string; readonly input: unknown }[];
  readonly expect: ExpectedOutcome;
}

/** How the runner classified a reply (the five outcomes). */
export type Classification = 'salvaged' | 'refused-with-fix' | 'refused-unclear' | 'did-something-else' | 'threw';
