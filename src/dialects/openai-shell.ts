import { z } from 'zod';
import type { ShellResultData } from '../collections/shell/format.js';
import { ToolError } from '../errors/tool-error.js';
import { normalizeOutput, defineTool, type ToolDefinition } from '../tool.js';
import { routedApproval, routedExecute, routedPolicy, type Route } from './route.js';

/** The name of the Responses API's shell tool. */
export const OPENAI_SHELL_NAME = 'shell';

const shellInput = z.object({
  commands: z.array(z.string()).min(1, { message: 'give at least one command' }).describe('Commands to run, one after another, each in a fresh process.'),
  timeout_ms: z.number().positive().nullish().describe('Milliseconds each command may run.'),
  max_output_length: z.number().int().positive().nullish().describe('Characters of output to return per command.'),
});

/** How one command of a `shell_call` ended, in the shape of the API's `shell_call_output`. */
export interface ShellCommandOutput {
  readonly command: string;
  readonly stdout: string;
  readonly stderr: string;
  readonly outcome: { readonly type: 'exit'; readonly exit_code: number } | { readonly type: 'timeout' };
}

/** The result's `data`: one entry per command, for the adapter's `shell_call_output`. */
export interface OpenAIShellData {
  readonly commands: readonly ShellCommandOutput[];
  readonly maxOutputLength: number | null;
}

/**
 * The Responses API's `shell` tool (`{ type: 'shell' }` in the request), run by `run_shell`:
 * a `shell_call`'s `action` (`commands`, `timeout_ms`, `max_output_length`) is its input.
 * Every command passes `run_shell`'s policy before any runs, the call asks once for all of
 * them (each shown), and they run one after another, each in its own process tree with the
 * sandbox and timeout of `run_shell`. The result's `data` ({@link OpenAIShellData}) holds the
 * per-command output the API expects.
 */
export function createOpenAIShellTool(runShell: ToolDefinition<any>): ToolDefinition<typeof shellInput> {
  const routes = (input: z.output<typeof shellInput>): Route[] =>
    input.commands.map((command) => ({
      tool: runShell,
      input: { command, ...(input.timeout_ms == null ? {} : { timeout_seconds: Math.max(1, input.timeout_ms / 1000) }) },
    }));
  return defineTool({
    name: OPENAI_SHELL_NAME,
    description: 'Runs shell commands in the workspace, one after another, each in a fresh process that starts in the workspace root.',
    kind: 'execute',
    // Commands stream their output as run_shell's do.
    reportsProgress: runShell.reportsProgress === true,
    input: shellInput,
    async checkPolicy(input, { session }) {
      for (const [index, route] of routes(input).entries()) {
        const refusal = await routedPolicy(route, OPENAI_SHELL_NAME, session);
        if (refusal !== undefined) return input.commands.length === 1 ? refusal : `Command ${index + 1} of ${input.commands.length} (\`${input.commands[index]}\`): ${refusal} None of the commands was run.`;
      }
      return undefined;
    },
    needsApproval: async (input, { session }) => {
      for (const route of routes(input)) if (await routedApproval(route, OPENAI_SHELL_NAME, session)) return true;
      return false;
    },
    describeCall: (input) => input.commands.map((command) => runShell.describeCall?.({ command }) ?? `Run: ${command}`).join('\n'),
    approvalKey: (input) => {
      const keys = new Set(input.commands.map((command) => runShell.approvalKey?.({ command })));
      // "Always" is remembered only when every command falls under one key.
      return keys.size === 1 ? [...keys][0] : undefined;
    },
    async execute(input, context) {
      const outputs: ShellCommandOutput[] = [];
      const texts: string[] = [];
      let failed = false;
      for (const [index, route] of routes(input).entries()) {
        const command = input.commands[index]!;
        let result;
        try {
          result = normalizeOutput(await routedExecute(route, OPENAI_SHELL_NAME, context));
        } catch (error) {
          if (!(error instanceof ToolError)) throw error;
          result = { text: error.message, isError: true };
        }
        const data = result.data as ShellResultData | undefined;
        const output = commandOutput(command, data, result.text, input.max_output_length ?? null);
        outputs.push(output);
        failed ||= result.isError;
        texts.push(input.commands.length === 1 ? result.text : `$ ${command}\n${result.text}`);
      }
      const data: OpenAIShellData = { commands: outputs, maxOutputLength: input.max_output_length ?? null };
      return { text: texts.join('\n\n'), isError: failed, data };
    },
  });
}

/** One command's output for `shell_call_output`, cut to `max_output_length` characters (stdout first). */
function commandOutput(command: string, data: ShellResultData | undefined, text: string, maxLength: number | null): ShellCommandOutput {
  if (data === undefined) return { command, stdout: '', stderr: text, outcome: { type: 'exit', exit_code: 1 } };
  const outcome: ShellCommandOutput['outcome'] =
    data.status === 'timed-out'
      ? { type: 'timeout' }
      : { type: 'exit', exit_code: data.exitCode ?? (data.status === 'failed-to-start' ? 127 : 128 + signalNumber(data.signal)) };
  let stdout = data.output;
  let stderr = data.stderr ?? (data.status === 'exited' ? '' : text.split('\n')[0]!);
  if (maxLength !== null) {
    stdout = cutMiddle(stdout, maxLength);
    stderr = cutMiddle(stderr, Math.max(0, maxLength - stdout.length));
  }
  return { command, stdout, stderr, outcome };
}

function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < 40) return text.slice(0, max);
  const marker = `\n[… ${(text.length - max).toLocaleString('en-US')} characters left out …]\n`;
  const keep = Math.max(0, max - marker.length);
  return text.slice(0, Math.ceil(keep / 2)) + marker + text.slice(text.length - Math.floor(keep / 2));
}

const SIGNALS: Readonly<Record<string, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };

function signalNumber(signal: string | null): number {
  return signal === null ? 0 : (SIGNALS[signal] ?? 0);
}
