import { execa } from 'execa';
import { ToolError } from '../../errors/tool-error.js';
import type { ResolvedGitHubToolsOptions } from './options.js';

/** gh's exit code for "authentication required". */
export const GH_AUTH_EXIT_CODE = 4;
/** Characters of gh's error output a failure message quotes. */
const MAX_ERROR_CHARACTERS = 2_000;
/** Bytes gh may print before it is stopped: far more than any reply shows, so memory stays bounded. */
const MAX_BUFFER = 20_000_000;
/** What gh prints when no account is logged in, in its several wordings. */
const NOT_LOGGED_IN = /gh auth login|not logged in|authentication required|HTTP 401|Bad credentials/i;
/** Keeps gh from prompting, paging, colouring and checking for updates. */
const GH_ENVIRONMENT = {
  GH_PROMPT_DISABLED: '1',
  GH_NO_UPDATE_NOTIFIER: '1',
  GH_SPINNER_DISABLED: '1',
  NO_COLOR: '1',
  CLICOLOR: '0',
};

/**
 * Runs `gh` with `args` as an array (never through a shell) in the workspace root, standard
 * input closed, within the timeout, and returns its standard output. Every failure becomes a
 * {@link ToolError} whose text says what to do: gh missing, not logged in, too slow, cancelled,
 * or failing with its own message.
 *
 * @param shown How the command is named in messages, e.g. `gh issue view 12`.
 */
export async function runGh(
  options: ResolvedGitHubToolsOptions,
  args: readonly string[],
  context: { signal: AbortSignal; shown: string },
): Promise<string> {
  const result = await execa(options.gh, args, {
    cwd: options.workspace.root,
    stdin: 'ignore',
    env: GH_ENVIRONMENT,
    timeout: options.timeoutMs,
    cancelSignal: context.signal,
    forceKillAfterDelay: 2_000,
    maxBuffer: MAX_BUFFER,
    reject: false,
    windowsHide: true,
  });
  if (!result.failed) return result.stdout;

  const shown = `\`${context.shown}\``;
  if (result.code === 'ENOENT') {
    throw new ToolError(
      `The GitHub CLI (\`${options.gh}\`) is not installed or not on PATH, so ${shown} could not run. Ask the user to install the GitHub CLI (https://cli.github.com) and run \`gh auth login\`; do not retry until they have.`,
    );
  }
  if (result.timedOut) {
    const seconds = (options.timeoutMs / 1000).toLocaleString('en-US');
    throw new ToolError(`${shown} did not finish within ${seconds} seconds and was stopped. GitHub may be slow or unreachable: try again later, or ask the user.`);
  }
  if (result.isCanceled) throw new ToolError(`${shown} was cancelled.`);
  if (result.isMaxBuffer) {
    throw new ToolError(`${shown} printed more than ${MAX_BUFFER.toLocaleString('en-US')} characters and was stopped. Ask for less (a lower limit, one pull request at a time).`);
  }
  const stderr = String(result.stderr ?? '').trim();
  if (result.exitCode === GH_AUTH_EXIT_CODE || NOT_LOGGED_IN.test(stderr)) {
    throw new ToolError(
      `The GitHub CLI is not logged in to GitHub, so ${shown} could not run. Ask the user to run \`gh auth login\` (or to set GH_TOKEN); do not retry until they have.`,
    );
  }
  if (result.exitCode === undefined) {
    throw new ToolError(`\`${options.gh}\` could not be started (${result.originalMessage ?? result.shortMessage}). Ask the user to check the GitHub CLI's installation.`);
  }
  const said = stderr.length > MAX_ERROR_CHARACTERS ? `${stderr.slice(0, MAX_ERROR_CHARACTERS)}…` : stderr || String(result.stdout ?? '').trim() || 'no message';
  throw new ToolError(`${shown} failed (exit code ${result.exitCode}): ${said}${hintFor(stderr)}`);
}

/** A next step for gh's most common failures. */
function hintFor(stderr: string): string {
  if (/could not resolve to an? (issue|pull request)|no pull requests? found|not found/i.test(stderr)) {
    return '\nCheck the number: gh_list_issues and gh_list_prs show what exists.';
  }
  if (/not a git repository|no git remotes|none of the git remotes/i.test(stderr)) {
    return '\nThe workspace is not a checkout of a GitHub repository: ask the user which repository to use (the `repo` option).';
  }
  return '';
}

/** Parses gh's `--json` output; anything else is reported, not thrown as a bug. */
export function parseGhJson<T>(stdout: string, shown: string): T {
  try {
    return JSON.parse(stdout) as T;
  } catch {
    const start = stdout.trim().slice(0, 200);
    throw new ToolError(`\`${shown}\` printed something other than JSON${start === '' ? ' (nothing)' : `: ${start}`}. The GitHub CLI may be too old for --json; ask the user to update it.`);
  }
}
