/** The texts the model reads about the shell. */

/** What the description needs to know about the host's settings. */
export interface ShellDescriptionSettings {
  readonly shellName: string;
  readonly timeoutSeconds: number;
  readonly maxTimeoutSeconds: number;
  readonly maxOutputCharacters: number;
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
  readonly sandboxed: boolean;
  readonly separateStreams: boolean;
}

/** The description of `run_shell`. */
export function runShellDescription(settings: ShellDescriptionSettings): string {
  const parts = [
    `Runs one ${settings.shellName} command in a fresh process; returns its exit code and output ` +
      (settings.separateStreams ? '(stdout and stderr apart).' : '(stdout and stderr merged in order).'),
    'Each call starts in the workspace root; nothing carries over (cd, variables): use working_directory.',
    'No terminal and no input, so prompts fail: pass flags such as --yes.',
    'It is stopped, with everything it started, when timeout_seconds runs out.',
    `A reply over ${settings.maxOutputCharacters.toLocaleString('en-US')} characters is cut in the middle; the whole output is saved to a file the reply names.`,
  ];
  if (settings.allow !== undefined) {
    parts.push(
      `Only commands starting with ${settings.allow.map((prefix) => `\`${prefix}\``).join(', ')} may run` +
        (settings.deny === undefined ? '' : `, except ${settings.deny.map((prefix) => `\`${prefix}\``).join(', ')}`) +
        ", one plain command at a time with every word written out (plain, '…' or \"…\"): no chaining (; & | && ||), substitution ($( ${ $[ and backticks), variables ($NAME), $'…' quoting, redirection (< >), line breaks or comments.",
    );
  }
  if (settings.sandboxed) {
    parts.push('Commands run in a sandbox: only the workspace is writable, the home folder is absent and there is no network.');
  }
  return parts.join(' ');
}

/** `command` field. */
export const COMMAND_DESCRIPTION = 'Command line, e.g. `npm test`.';
/** `working_directory` field. */
export const WORKING_DIRECTORY_DESCRIPTION = 'Folder to run in (default: the workspace root).';
/** `timeout_seconds` field. */
export function timeoutSecondsDescription(timeoutSeconds: number, maxTimeoutSeconds: number): string {
  return `Seconds before it is stopped, 1 to ${maxTimeoutSeconds} (default ${timeoutSeconds}).`;
}
/** `output_filter` field. */
export const OUTPUT_FILTER_DESCRIPTION = 'Regular expression: return only matching output lines, with their count (e.g. `error|warn`).';

/** The collection's system-prompt text. */
export function shellInstructions(shellName: string): string {
  return (
    `run_shell runs ${shellName} commands in the workspace, one fresh process per call with no terminal and no input. ` +
    'Use it to build, test and run programs; read, search and edit files with the file tools when you have them. ' +
    'Each call starts in the workspace root: use working_directory rather than cd.'
  );
}

/** Told when the command only changed directory. */
export const CD_ONLY_NOTE =
  'The command only changed directory. Each call starts a fresh shell in the workspace root, so it had no lasting effect: pass working_directory to run a command elsewhere.';

/** Told when the model asked for more time than the host allows. */
export function timeoutCappedNote(requestedSeconds: number, maxSeconds: number): string {
  return `timeout_seconds ${requestedSeconds} is above this host's maximum, so the command ran with ${maxSeconds} s.`;
}
