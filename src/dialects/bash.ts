import { z } from 'zod';
import { ToolError } from '../errors/tool-error.js';
import type { Session } from '../session.js';
import { defineTool, type ToolDefinition, type ToolKind, type ToolOutput } from '../tool.js';
import { routedApproval, routedExecute, routedPolicy, type Route } from './route.js';

/** The name Anthropic gives its bash tool (`bash_20250124`). */
export const BASH_NAME = 'bash';

const bashInput = z.object({
  command: z.string().optional().describe('The bash command to run. Required unless the tool is being restarted.'),
  restart: z.boolean().optional().describe('Restart the shell.'),
});
type BashInput = z.output<typeof bashInput>;

/** What the session remembers of earlier calls that only set shell state, to warn a later call that relies on it. */
interface ShellState {
  /** Variables an earlier call set or exported and nothing else. */
  variables: string[];
  /** The folder an earlier call `cd`-ed into and nothing else, for the very next call. */
  directory?: string;
}

const STATE_KEY = 'dialects.bash';

/** The parts of a command, split where the shell would run the next one. */
function commandParts(command: string): string[] {
  return command.split(/&&|\|\||;|\n/).map((part) => part.trim()).filter((part) => part.length > 0);
}

/** Variables set by a part that only sets them: `export A=1 B=2`, `A=1`, `declare -x A=1`. */
function assignedVariables(part: string): string[] | undefined {
  const match = /^(?:export|declare(?:\s+-\w+)*|typeset|local|readonly)?\s*((?:[A-Za-z_][A-Za-z0-9_]*(?:=\S*)?\s*)+)$/.exec(part);
  if (match === null || (!/^(export|declare|typeset|local|readonly)\b/.test(part) && !part.includes('='))) return undefined;
  return match[1]!.trim().split(/\s+/).map((word) => word.split('=')[0]!);
}

/** What a command leaves behind that a fresh process will not have, or `undefined` when it does real work. */
function stateOnly(command: string): { variables: string[]; directory?: string; other?: string } | undefined {
  const parts = commandParts(command);
  if (parts.length === 0) return undefined;
  const state: { variables: string[]; directory?: string; other?: string } = { variables: [] };
  for (const part of parts) {
    const cd = /^(?:cd|pushd)(?:\s+(.+))?$/.exec(part);
    if (cd !== null) {
      state.directory = cd[1]?.trim() ?? '~';
      continue;
    }
    const variables = assignedVariables(part);
    if (variables !== undefined) {
      state.variables.push(...variables);
      continue;
    }
    const other = /^(source|\.|alias|unalias|set|unset|shopt|ulimit|umask)(\s|$)/.exec(part);
    if (other !== null) {
      state.other = other[1]!;
      continue;
    }
    return undefined;
  }
  return state;
}

/**
 * Anthropic's bash tool (`bash_20250124`), run by `run_shell`: `command` runs in a fresh
 * process with `run_shell`'s policy, approval, sandbox, timeout, tree kill and bounded
 * output; `restart` has nothing to restart and says so. Claude is trained on a persistent
 * shell, so a call that only sets state (`cd`, `export`, `source`) is told that the next call
 * will not have it, and a call that uses a variable such a call set is told it is not set.
 */
export function createBashTool(runShell: ToolDefinition<any>): ToolDefinition<typeof bashInput> {
  const routeOf = (input: BashInput): Route => {
    if (input.command === undefined || input.command.trim() === '') throw new ToolError('bash needs a command to run (or restart: true).');
    return { tool: runShell, input: { command: input.command } };
  };
  return defineTool({
    name: BASH_NAME,
    description: 'Runs a bash command in the workspace, each call in a fresh process that starts in the workspace root.',
    kind: 'execute',
    // Commands stream their output as run_shell's do.
    reportsProgress: runShell.reportsProgress === true,
    kindOf: (input): ToolKind => (input.restart === true && input.command === undefined ? 'other' : 'execute'),
    input: bashInput,
    async checkPolicy(input, { session }) {
      if (input.restart === true && input.command === undefined) return undefined;
      try {
        return await routedPolicy(routeOf(input), BASH_NAME, session);
      } catch (error) {
        if (error instanceof ToolError) return error.message;
        throw error;
      }
    },
    needsApproval: (input, { session }: { session: Session }) => (input.restart === true && input.command === undefined ? false : routedApproval(routeOf(input), BASH_NAME, session)),
    describeCall: (input) => (input.command === undefined ? 'Restart the shell' : (runShell.describeCall?.({ command: input.command }) ?? `Run: ${input.command}`)),
    approvalKey: (input) => (input.command === undefined ? 'restart' : runShell.approvalKey?.({ command: input.command })),
    async execute(input, context) {
      const state = context.session.state<ShellState>(STATE_KEY, () => ({ variables: [] }));
      if (input.restart === true && input.command === undefined) {
        state.variables = [];
        delete state.directory;
        return 'The shell was restarted. Every bash call runs in a fresh process that starts in the workspace root, so nothing carried over from earlier calls anyway.';
      }
      const command = input.command!;
      const notes = relianceNotes(command, state);
      const output = await routedExecute(routeOf(input), BASH_NAME, context);
      const setsOnly = stateOnly(command);
      if (setsOnly === undefined) {
        delete state.directory;
      } else {
        state.variables = [...new Set([...state.variables, ...setsOnly.variables])];
        if (setsOnly.directory === undefined) delete state.directory;
        else state.directory = setsOnly.directory;
        const what = [
          setsOnly.variables.length > 0 ? `set ${setsOnly.variables.map((name) => `\`${name}\``).join(', ')}` : undefined,
          setsOnly.other !== undefined ? `ran \`${setsOnly.other}\`` : undefined,
        ].filter((part) => part !== undefined);
        // run_shell already explains a command that only changes directory.
        if (what.length > 0) {
          notes.push(`This command only ${what.join(' and ')}. Each bash call runs in a fresh process, so the next call will not have it: put it in the same command as the work, e.g. \`export NAME=value && npm test\`.`);
        }
      }
      return appendNotes(output, notes);
    },
  });
}

/** Notes for a command that uses state an earlier call set, which this fresh process lacks. */
function relianceNotes(command: string, state: ShellState): string[] {
  const notes: string[] = [];
  if (state.directory !== undefined && !/^\s*(cd|pushd)\b/.test(command)) {
    notes.push(`The previous call ran \`cd ${state.directory}\` alone, but this command ran in the workspace root: each call is a fresh process. Use \`cd ${state.directory} && …\` in one command.`);
  }
  const assignedHere = new Set(commandParts(command).flatMap((part) => assignedVariables(part) ?? []));
  const used = state.variables.filter((name) => !assignedHere.has(name) && new RegExp(`\\$(\\{)?${name}\\b`).test(command));
  if (used.length > 0) {
    notes.push(`${used.map((name) => `\`$${name}\``).join(', ')} ${used.length === 1 ? 'was' : 'were'} set by an earlier call, but each call is a fresh process, so ${used.length === 1 ? 'it is' : 'they are'} not set here. Set ${used.length === 1 ? 'it' : 'them'} in the same command.`);
  }
  return notes;
}

function appendNotes(output: ToolOutput, notes: readonly string[]): ToolOutput {
  if (notes.length === 0) return output;
  const extra = notes.map((note) => `Note: ${note}`).join('\n');
  return typeof output === 'string' ? `${output}\n${extra}` : { ...output, text: `${output.text}\n${extra}` };
}
