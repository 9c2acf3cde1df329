/**
 * @module run_shell's alias table: the field names other harnesses' shell tools use, each with
 * the field it means here (Codex's `cmd`, `workdir`, `timeout_ms`; Gemini CLI's `directory` and
 * `dir_path`; Claude Code's `run_in_background`), and the names whose meaning is not certain,
 * refused with the accepted form (a bare `timeout`). The core applies it to every call.
 */
import { millisecondsToSeconds, type InputAliases } from '../../model-inputs/aliases.js';
import { commandFromArgv } from './argv-command.js';

/** What a `cmd` list or text stands for: the command line, the list quoted exactly (see `argv-command.ts`). */
function commandFrom(value: unknown, shellName: string): unknown {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return commandFromArgv(value, shellName);
  throw new TypeError('`command` as one string, such as "npm test"');
}

/** Said when a tool not offered in the background is asked to run there. */
const NO_BACKGROUND =
  'Background jobs are not offered here, so run_shell runs every command in the foreground and stops it after timeout_seconds: ' +
  'send the call without `run_in_background` for a command that ends by itself; a server or watcher that never ends cannot run here, so tell the user';

/**
 * The alias table of run_shell, for a collection whose shell is `shellName` (a `cmd` list that
 * invokes that shell gives its script). `withBackground` maps `is_background` to the
 * `run_in_background` field it adds; without it both are refused.
 */
export function runShellAliases(shellName: string): InputAliases {
  return {
    // Codex: `cmd` (exec_command) as text, or a list such as ["bash", "-lc", "npm test"].
    cmd: { to: 'command', convert: (value) => commandFrom(value, shellName) },
    workdir: 'working_directory',
    cwd: 'working_directory',
    working_dir: 'working_directory',
    // Gemini CLI's run_shell_command: a folder relative to the project root.
    directory: 'working_directory',
    dir_path: 'working_directory',
    timeout_ms: millisecondsToSeconds('timeout_seconds'),
    timeout: {
      refuse:
        'You sent `timeout`, whose unit is not certain (Claude Code counts it in milliseconds, other tools in seconds): ' +
        'send `timeout_seconds` in seconds, such as 120, or `timeout_ms` in milliseconds',
    },
    // Claude Code and Gemini CLI describe each command for the user; run_shell takes no such field.
    description: {
      refuse: 'run_shell takes no `description` (say what the command does in your message instead): send the same call without `description`',
    },
    run_in_background: { refuse: NO_BACKGROUND },
    is_background: { refuse: NO_BACKGROUND },
    shell: { refuse: `run_shell runs every command with ${shellName}: send the call without \`shell\`` },
    yield_time_ms: {
      refuse: 'run_shell waits for the command to end (or for timeout_seconds): send the call without `yield_time_ms`, with `timeout_seconds` if it needs longer',
    },
    max_output_tokens: {
      refuse: 'run_shell cuts long output in the middle itself and saves the whole of it to a file it names: send the call without `max_output_tokens` (use `output_filter` to keep only matching lines)',
    },
  };
}
