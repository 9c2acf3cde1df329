/**
 * `run_shell`'s command execution span: the process's exit code, signal, status and output
 * size, by the OpenTelemetry process conventions. The command text (`process.command_args`)
 * is recorded only when the host sets `telemetry.recordCommands`, since commands carry secrets.
 */
import * as names from './names.js';
import { traceChild } from './child-span.js';

/** The program a command runs in, and the command. */
export interface TracedCommand {
  /** The shell's name, such as `bash`: `process.command`. */
  readonly shell: string;
  /** The shell's arguments: `process.command_args`, when the host opts in. */
  readonly args: readonly string[];
}

/** How the command ended, as the shell collection reports it. */
export interface TracedCommandOutcome {
  readonly status: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** Characters of output, after terminal escapes were removed. */
  readonly outputCharacters: number;
}

/** Runs a command inside its span (when the call is traced). */
export function traceCommand<T>(command: TracedCommand, run: () => Promise<T>, describe: (result: T) => TracedCommandOutcome): Promise<T> {
  return traceChild(
    `execute_command ${command.shell}`,
    (call) => ({
      [names.PROCESS_COMMAND]: command.shell,
      ...(call.options.recordCommands === true ? { [names.PROCESS_COMMAND_ARGS]: [command.shell, ...command.args] } : {}),
    }),
    run,
    (result) => {
      const outcome = describe(result);
      return {
        attributes: {
          [names.COMMAND_STATUS]: outcome.status,
          [names.COMMAND_OUTPUT_CHARACTERS]: outcome.outputCharacters,
          ...(outcome.exitCode === null ? {} : { [names.PROCESS_EXIT_CODE]: outcome.exitCode }),
          ...(outcome.signal === null ? {} : { [names.COMMAND_SIGNAL]: outcome.signal }),
        },
        ...(outcome.status !== 'exited' ? { errorType: outcome.status } : outcome.exitCode !== 0 ? { errorType: String(outcome.exitCode) } : {}),
      };
    },
  );
}
