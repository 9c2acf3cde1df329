import { parseArgs } from 'node:util';
import { APPROVAL_MODES, type ApprovalMode } from '../../src/approval.js';

/** The help text of `agent-toolbelt`. */
export const HELP_TEXT = `Usage: agent-toolbelt mcp --root DIR [options]

Serves agent-toolbelt's tools to an MCP client (Claude Desktop, Cursor, VS Code, other
agents) over stdio: files, shell, task list, date and time, and scratch notes, all jailed
to DIR.

Options:
  --root DIR            The folder the tools may touch (required). Paths outside it,
                        including through symbolic links, are refused.
  --read-only           Offer only the reading file tools (list_directory, find_files,
                        search_files, read_file); no writing tools and no shell.
  --allow LIST          Command prefixes run_shell may run, comma-separated or repeated:
                        --allow git,npm. With a list, anything else is refused. Default:
                        any command (each one still needs approval in ask mode).
  --deny LIST           Exceptions to --allow: --allow git --deny "git push". Needs --allow.
  --no-shell            Leave out run_shell.
  --sandbox bwrap       Run every command under bubblewrap: only DIR is writable, no
                        network, the home folder absent. Needs bwrap installed.
  --keep-backups        Copy each file to DIR/.toolbelt/backups/ before it is edited,
                        overwritten or deleted.
  --background          Let run_shell start background jobs (adds job_output, job_stop,
                        job_list). Jobs end when the server stops.
  --github              Add the GitHub tools (gh_list_issues, gh_view_pr, gh_create_pr, ...).
                        Needs the gh CLI, logged in.
  --skills              Add load_skill and list the skills (Agent Skills: folders with a
                        SKILL.md) found in DIR/.agents/skills, .claude/skills and skills.
  --mode MODE           Which calls run without asking: ask (default: writing, deleting and
                        running commands ask), accept-edits (file edits and moves run
                        unasked), plan (edits, deletes and commands are refused), auto
                        (nothing asks). Clients that support MCP elicitation show each
                        question to the user; with other clients a call that would ask is
                        refused, so pick the mode that fits.
  -h, --help            Show this help.
  -v, --version         Show the version.

Example (an MCP client's server entry; the MCP SDK is an optional peer of agent-toolbelt):
  { "command": "npx", "args": ["-y", "-p", "agent-toolbelt", "-p", "@modelcontextprotocol/sdk",
    "agent-toolbelt", "mcp", "--root", "/path/to/project"] }
`;

/** What a model is told when a call needs approval that the client cannot ask for. */
export const CLI_APPROVAL_HINT =
  'To allow such calls, the user can restart the agent-toolbelt server with `--mode accept-edits` (file edits run unasked) or `--mode auto` (nothing asks), or use an MCP client that supports elicitation.';

/** What the command line asks for. */
export type CliCommand =
  | { readonly command: 'help' }
  | { readonly command: 'version' }
  | { readonly command: 'mcp'; readonly options: McpCliOptions };

/** The `mcp` command's options after validation. */
export interface McpCliOptions {
  readonly root: string;
  readonly readOnly: boolean;
  readonly shell: boolean;
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
  readonly sandbox?: 'bwrap';
  readonly keepBackups: boolean;
  readonly background: boolean;
  readonly github: boolean;
  readonly skills: boolean;
  readonly mode: ApprovalMode;
}

/** A mistake on the command line; the message says what to change. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/** Reads the arguments after `agent-toolbelt`. Throws {@link CliUsageError} for anything wrong. */
export function parseCli(args: readonly string[]): CliCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        root: { type: 'string' },
        'read-only': { type: 'boolean', default: false },
        allow: { type: 'string', multiple: true },
        deny: { type: 'string', multiple: true },
        'no-shell': { type: 'boolean', default: false },
        sandbox: { type: 'string' },
        'keep-backups': { type: 'boolean', default: false },
        background: { type: 'boolean', default: false },
        github: { type: 'boolean', default: false },
        skills: { type: 'boolean', default: false },
        mode: { type: 'string', default: 'ask' },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'v', default: false },
      },
    });
  } catch (error) {
    throw new CliUsageError(`${(error as Error).message}\nRun \`agent-toolbelt --help\` for the options.`);
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: 'help' };
  if (values.version) return { command: 'version' };
  if (positionals.length === 0) throw new CliUsageError('Missing the command. Run `agent-toolbelt mcp --root DIR`, or `agent-toolbelt --help`.');
  if (positionals[0] !== 'mcp' || positionals.length > 1) {
    throw new CliUsageError(`Unknown command \`${positionals.join(' ')}\`. The only command is \`mcp\`: \`agent-toolbelt mcp --root DIR\`.`);
  }
  if (values.root === undefined || values.root.trim() === '') {
    throw new CliUsageError('Missing `--root DIR`: the folder the tools may touch, e.g. `agent-toolbelt mcp --root .`.');
  }
  if (!(APPROVAL_MODES as readonly string[]).includes(values.mode)) {
    throw new CliUsageError(`Expected \`--mode\` to be one of ${APPROVAL_MODES.join(', ')}, got \`${values.mode}\`.`);
  }
  if (values.sandbox !== undefined && values.sandbox !== 'bwrap') {
    throw new CliUsageError(`Expected \`--sandbox\` to be \`bwrap\`, got \`${values.sandbox}\`.`);
  }
  const allow = splitList(values.allow, '--allow');
  const deny = splitList(values.deny, '--deny');
  if (deny !== undefined && allow === undefined) {
    throw new CliUsageError('`--deny` makes exceptions to `--allow`, so it needs `--allow` too: `--allow git --deny "git push"`.');
  }
  const shell = !values['read-only'] && !values['no-shell'];
  const shellFlags = [allow && '--allow', deny && '--deny', values.sandbox && '--sandbox', values.background && '--background'].filter(Boolean);
  if (!shell && shellFlags.length > 0) {
    throw new CliUsageError(`${shellFlags.join(', ')} configure run_shell, which ${values['read-only'] ? '`--read-only`' : '`--no-shell`'} leaves out. Drop one of them.`);
  }
  if (values['read-only'] && values['keep-backups']) {
    throw new CliUsageError('`--keep-backups` has nothing to do with `--read-only`: no file is changed. Drop one of them.');
  }
  return {
    command: 'mcp',
    options: {
      root: values.root,
      readOnly: values['read-only'],
      shell,
      ...(allow === undefined ? {} : { allow }),
      ...(deny === undefined ? {} : { deny }),
      ...(values.sandbox === undefined ? {} : { sandbox: 'bwrap' as const }),
      keepBackups: values['keep-backups'],
      background: values.background,
      github: values.github,
      skills: values.skills,
      mode: values.mode as ApprovalMode,
    },
  };
}

function splitList(values: string[] | undefined, flag: string): string[] | undefined {
  if (values === undefined) return undefined;
  const items = values.flatMap((value) => value.split(',')).map((item) => item.trim());
  if (items.some((item) => item === '')) throw new CliUsageError(`Expected \`${flag}\` to list command prefixes separated by commas, got \`${values.join(',')}\`.`);
  return items;
}
