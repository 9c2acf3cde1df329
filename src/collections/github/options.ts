import type { Workspace } from '../../workspace/workspace.js';

/** How long one `gh` call may take by default. */
export const DEFAULT_GH_TIMEOUT_MS = 15_000;
/** Characters of a reply before it is cut in the middle, by default (the shell's limit). */
export const DEFAULT_GH_MAX_OUTPUT_CHARACTERS = 30_000;

/** `OWNER/REPO` or `HOST/OWNER/REPO`, as `gh --repo` takes it. */
const REPO_PATTERN = /^(?:[A-Za-z0-9.-]+\/)?[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/** Options of {@link createGitHubTools}. */
export interface GitHubToolsOptions {
  /** `gh` runs in the workspace root, so it finds the repository there (unless `repo` is set). */
  readonly workspace: Workspace;
  /**
   * The GitHub CLI: a program name looked up on `PATH`, or a path to it.
   * @default 'gh'
   */
  readonly gh?: string;
  /**
   * Milliseconds one `gh` call may take before it is stopped.
   * @default 15_000
   */
  readonly timeoutMs?: number;
  /**
   * Characters of a reply before it is cut in the middle; the whole reply is then kept in
   * `.toolbelt/output/` for `read_file`.
   * @default 30_000
   */
  readonly maxOutputCharacters?: number;
  /**
   * The repository to work on, `OWNER/REPO` or `HOST/OWNER/REPO`, passed as `--repo`. By
   * default `gh` uses the repository of the workspace's git remote.
   */
  readonly repo?: string;
}

/** The options after validation, with defaults applied. */
export interface ResolvedGitHubToolsOptions {
  readonly workspace: Workspace;
  readonly gh: string;
  readonly timeoutMs: number;
  readonly maxOutputCharacters: number;
  readonly repo: string | undefined;
}

/** Checks the options once, when the collection is created; a message names the option at fault. */
export function resolveGitHubToolsOptions(options: GitHubToolsOptions): ResolvedGitHubToolsOptions {
  const workspace = (options as Partial<GitHubToolsOptions> | undefined)?.workspace;
  if (typeof workspace !== 'object' || workspace === null || typeof workspace.root !== 'string') {
    throw new TypeError(`Expected the \`workspace\` option to be a Workspace, got ${describeValue(workspace)}.`);
  }
  const gh = options.gh ?? 'gh';
  if (typeof gh !== 'string' || gh.trim() === '' || gh.includes('\0')) {
    throw new TypeError(`Expected the \`gh\` option to be the name of or path to the GitHub CLI, got ${describeValue(gh)}.`);
  }
  const repo = options.repo;
  if (repo !== undefined && (typeof repo !== 'string' || !REPO_PATTERN.test(repo))) {
    throw new TypeError(`Expected the \`repo\` option to be \`OWNER/REPO\` or \`HOST/OWNER/REPO\`, got ${describeValue(repo)}.`);
  }
  return {
    workspace,
    gh,
    timeoutMs: positiveInteger('timeoutMs', options.timeoutMs ?? DEFAULT_GH_TIMEOUT_MS),
    maxOutputCharacters: positiveInteger('maxOutputCharacters', options.maxOutputCharacters ?? DEFAULT_GH_MAX_OUTPUT_CHARACTERS),
    repo,
  };
}

function positiveInteger(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`Expected the \`${name}\` option to be a positive integer, got ${describeValue(value)}.`);
  }
  return value;
}

function describeValue(value: unknown): string {
  if (value === null) return '`null`';
  if (typeof value === 'string') return `\`${JSON.stringify(value)}\` (string)`;
  if (typeof value === 'object') return `\`${Object.prototype.toString.call(value)}\` (object)`;
  return `\`${String(value)}\` (${typeof value})`;
}
