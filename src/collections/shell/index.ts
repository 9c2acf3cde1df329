import * as path from 'node:path';
import { z } from 'zod';
import { ToolError } from '../../errors/tool-error.js';
import { defineTool, type ToolCollection, type ToolContext, type ToolDefinition, type ToolOutput } from '../../tool.js';
import {
  CD_ONLY_NOTE,
  COMMAND_DESCRIPTION,
  OUTPUT_FILTER_DESCRIPTION,
  runShellDescription,
  shellInstructions,
  timeoutCappedNote,
  timeoutSecondsDescription,
  WORKING_DIRECTORY_DESCRIPTION,
} from './descriptions.js';
import { setBoxJobSource, type BoxJobSource } from '../../background/box-jobs.js';
import { buildEnvironment } from './environment.js';
import { formatShellResult } from './format.js';
import { resolveShellOptions, type ShellConfig, type ShellToolsOptions } from './options.js';
import { checkCommand, type CommandPolicy, commandApprovalKey, onlyChangesDirectory, prepareApprovalKey, startCommandPolicy } from './policy.js';
import { runCommand } from './run-command.js';
import { commandFromArgv } from './argv-command.js';
import { readFencedCommand } from './fenced-command.js';
import { runShellAliases } from './input-aliases.js';
import { prepareSpawnHost } from '../../workspace/spawn-host-client.js';
import { runShellOutput } from './output-schema.js';
import { traceCommand } from '../../telemetry/command-span.js';

/** Characters kept free of output in a reply, for the status, labels, markers and notes (at most half the reply). */
const REPLY_RESERVE = 1_000;

/**
 * The shell collection: one tool, `run_shell`, that runs a command in a fresh process in
 * its own process group, with standard input closed, a hard timeout that stops the whole
 * process tree, output merged in order, cleaned of terminal escapes, cut in the middle to
 * fit and saved whole to `.toolbelt/output/` when it does not. It asks for approval by
 * default, and checks the allow/deny lists before anyone is asked.
 *
 * The lists guard against honest mistakes; for a boundary use `sandbox: 'bwrap'` or a
 * `launcher` into a container.
 *
 * @throws {TypeError} for a wrong option, naming it; when `sandbox: 'bwrap'` is asked for and
 * bubblewrap is missing or cannot run here.
 *
 * @example
 * const shell = createShellTools({ workspace, allow: ['git', 'npm'], deny: ['git push'] });
 */
export function createShellTools(options: ShellToolsOptions): ToolCollection {
  const config = resolveShellOptions(options);
  // The bash grammar behind the allowlist and "always" keys loads on its own thread, once.
  startCommandPolicy();
  // Commands start from a small helper process, forked now while this process is small.
  if (config.workspace.capabilities.spawnsLocally) void prepareSpawnHost();
  const shellName = path.basename(config.shell);
  return {
    name: 'shell',
    tools: [createRunShellTool(config, shellName)],
    instructions: shellInstructions(shellName),
  };
}

/** What the parts of run_shell share: the resolved options, and the lists in the shape the policy takes. */
interface RunShell {
  readonly config: ShellConfig;
  readonly shellName: string;
  readonly policy: CommandPolicy;
  readonly maxTimeoutSeconds: number;
}

type RunShellInput = z.output<ReturnType<typeof runShellInput>>;

function createRunShellTool(config: ShellConfig, shellName: string): ToolDefinition<any> {
  const timeoutSeconds = Math.ceil(config.timeoutMs / 1000);
  const maxTimeoutSeconds = Math.floor(config.maxTimeoutMs / 1000);
  const policy = { ...(config.allow === undefined ? {} : { allow: config.allow }), ...(config.deny === undefined ? {} : { deny: config.deny }) };
  const shell: RunShell = { config, shellName, policy, maxTimeoutSeconds };

  const tool = defineTool({
    name: 'run_shell',
    description: runShellDescription({
      shellName,
      timeoutSeconds,
      maxTimeoutSeconds,
      maxOutputCharacters: config.maxOutputCharacters,
      ...policy,
      sandboxed: config.sandbox !== undefined,
      separateStreams: config.separateStreams,
    }),
    kind: 'execute',
    output: runShellOutput,
    input: runShellInput(shellName, timeoutSeconds, maxTimeoutSeconds),
    aliases: runShellAliases(shellName),
    needsApproval: true,
    canRunInBackground: true,
    reportsProgress: true,
    checkPolicy: (input: RunShellInput) => checkRunShellPolicy(shell, input),
    describeCall: ({ command, working_directory }: RunShellInput) => {
      const shown = commandToRun(command);
      return working_directory === undefined || working_directory === '.' ? `Run: ${shown}` : `Run in ${working_directory}: ${shown}`;
    },
    approvalKey: ({ command }: RunShellInput) => commandApprovalKey(commandToRun(command)),
    execute: (input: RunShellInput, context) => executeRunShell(shell, input, context),
  });
  // Where the workspace keeps jobs (a remote one's box; a local root when the host asks for it):
  // run_shell in the background runs there, outliving this process, with the same policy and
  // folder checks as a call in the foreground.
  setBoxJobSource(tool, { workspace: config.workspace, prepare: (value) => prepareBoxJob(shell, value as RunShellInput) });
  return tool;
}

function runShellInput(shellName: string, timeoutSeconds: number, maxTimeoutSeconds: number) {
  return z.object({
    // Codex sends `command` as a list of words; the message names the one string to send.
    command: z
      .string({ error: (issue) => (Array.isArray(issue.input) ? listCommandMessage(issue.input, shellName) : undefined) })
      .describe(COMMAND_DESCRIPTION),
    working_directory: z.string().optional().describe(WORKING_DIRECTORY_DESCRIPTION),
    timeout_seconds: z
      .number()
      .min(1, { message: `timeout_seconds must be at least 1; leave it out for the default of ${timeoutSeconds} s` })
      .optional()
      .describe(timeoutSecondsDescription(timeoutSeconds, maxTimeoutSeconds)),
    output_filter: z
      .string()
      .superRefine((pattern, context) => {
        const problem = regexProblem(pattern);
        if (problem !== undefined) context.addIssue({ code: 'custom', message: `not a valid regular expression (${problem}); fix or drop output_filter` });
      })
      .optional()
      .describe(OUTPUT_FILTER_DESCRIPTION),
  });
}

async function checkRunShellPolicy({ config, policy }: RunShell, input: RunShellInput): Promise<string | undefined> {
  const { working_directory } = input;
  const read = readFencedCommand(input.command);
  if ('refusal' in read) return read.refusal;
  const { command } = read;
  const refusal = await checkCommand(command, policy);
  if (refusal !== undefined) return refusal;
  // approvalKey, which comes next, is synchronous: it reads this parse.
  await prepareApprovalKey(command);
  if (working_directory !== undefined) {
    try {
      await config.workspace.resolveDirectory(working_directory);
    } catch (error) {
      if (error instanceof ToolError) return `working_directory: ${error.message}`;
      throw error;
    }
  }
  return undefined;
}

async function executeRunShell(shell: RunShell, input: RunShellInput, context: ToolContext): Promise<ToolOutput> {
  const { config } = shell;
  const { working_directory, timeout_seconds, output_filter } = input;
  const read = readFencedCommand(input.command);
  if ('refusal' in read) return { text: read.refusal, isError: true };
  const { command } = read;
  // The policy runs again here: execute may be reached without runTool (a host calling it directly).
  const refusal = await checkCommand(command, shell.policy);
  if (refusal !== undefined) return { text: refusal, isError: true };
  const directory = await config.workspace.resolveDirectory(working_directory ?? '.');
  const { timeoutMs, note } = commandTimeout(shell, timeout_seconds, context.background !== undefined);
  const notes: string[] = [...(read.note === undefined ? [] : [read.note]), ...(note === undefined ? [] : [note])];
  if (onlyChangesDirectory(command)) notes.push(CD_ONLY_NOTE);

  const [file, ...args] = shellCommand(config, command, directory.absolute, config.separateStreams);
  const maxOutput = config.maxOutputCharacters;
  const run = () => runCommand({
    workspace: config.workspace,
    file: file!,
    args,
    cwd: directory.absolute,
    env: environmentFor(config),
    timeoutMs,
    signal: context.signal,
    separateStreams: config.separateStreams,
    windowCharacters: maxOutput,
    spillThreshold: maxOutput - Math.min(REPLY_RESERVE, Math.floor(maxOutput / 2)),
    maxLineCharacters: config.maxLineCharacters,
    maxSpillCharacters: config.maxSpillCharacters,
    ...(output_filter === undefined ? {} : { filter: new RegExp(output_filter) }),
    ...(context.onProgress === undefined ? {} : { onText: context.onProgress }),
  });
  const outcome = await traceCommand({ shell: shell.shellName, args: ['-c', command] }, run, (ended) => ({
    status: ended.status,
    exitCode: ended.exitCode,
    signal: ended.signal,
    outputCharacters: [...ended.sections.values()].reduce((sum, section) => sum + section.rawCharacters, 0),
  }));
  return formatShellResult(outcome, {
    command,
    workingDirectory: directory.relative,
    maxCharacters: maxOutput,
    timeoutMs,
    notes,
    shellName: shell.shellName,
  });
}

/** The timeout one call runs with, and the note to the model when its `timeout_seconds` was capped. */
function commandTimeout({ config, maxTimeoutSeconds }: RunShell, timeoutSeconds: number | undefined, inBackground: boolean): { timeoutMs: number; note?: string } {
  if (timeoutSeconds !== undefined) {
    const timeoutMs = Math.ceil(timeoutSeconds * 1000);
    if (timeoutMs > config.maxTimeoutMs) return { timeoutMs: config.maxTimeoutMs, note: timeoutCappedNote(timeoutSeconds, maxTimeoutSeconds) };
    return { timeoutMs };
  }
  // A background job's own ceiling applies instead of the foreground timeout.
  if (inBackground) return { timeoutMs: MAX_TIMER_MS };
  return { timeoutMs: config.timeoutMs };
}

/** The program a background run_shell starts in the box, after the same checks as a call in the foreground. */
async function prepareBoxJob({ config, policy }: RunShell, input: RunShellInput): ReturnType<BoxJobSource['prepare']> {
  const { working_directory } = input;
  const read = readFencedCommand(input.command);
  if ('refusal' in read) return { refusal: read.refusal };
  const { command } = read;
  const refusal = await checkCommand(command, policy);
  if (refusal !== undefined) return { refusal };
  const directory = await config.workspace.resolveDirectory(working_directory ?? '.');
  const [file, ...args] = shellCommand(config, command, directory.absolute, false);
  return { spawn: { file: file!, args, cwd: directory.absolute, env: environmentFor(config) } };
}

/** The program and arguments that run `command`: launcher, sandbox, then the shell. */
function shellCommand(config: ShellConfig, command: string, directory: string, separateStreams: boolean): string[] {
  const script = separateStreams ? command : `exec 2>&1; ${command}`;
  return [
    ...config.launcher,
    ...(config.sandbox === undefined ? [] : [...config.sandbox.command, '--chdir', directory, '--']),
    config.shell,
    '-c',
    script,
  ];
}

/** The command as it runs: the text inside a Markdown fence the model wrapped it in (a refused fence is shown as sent). */
function commandToRun(command: string): string {
  const read = readFencedCommand(command);
  return 'refusal' in read ? command : read.command;
}

/** The schema's message for a command sent as a list of words, with the one string to send instead. */
function listCommandMessage(words: readonly unknown[], shellName: string): string {
  try {
    return `send the command as one string, not a list: ${JSON.stringify(commandFromArgv(words, shellName))}`;
  } catch {
    return 'send the command as one string, such as "npm test", not a list';
  }
}

/** setTimeout's ceiling (about 24.8 days): "no timeout of its own". */
const MAX_TIMER_MS = 2 ** 31 - 1;

function environmentFor(config: ShellConfig): Record<string, string> {
  // The environment to inherit is the workspace's: this process's, or a remote box's own.
  return buildEnvironment({ inheritEnv: config.inheritEnv, ...(config.env === undefined ? {} : { env: config.env }) }, config.workspace.processEnvironment());
}

function regexProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export type { ShellToolsOptions } from './options.js';
export type { ShellResultData } from './format.js';
