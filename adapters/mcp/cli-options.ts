import { parseArgs } from 'node:util';
import { APPROVAL_MODES, type ApprovalMode } from '../../src/approval.js';
import { parseErrorText } from './cli-flag-errors.js';

/** The help text of `agent-toolbelt`. The flag table of adapters/mcp/README.md repeats its options word for word. */
export const HELP_TEXT = `Usage: agent-toolbelt mcp --root DIR [options]
       agent-toolbelt serve-workspace --root DIR [--sandbox bwrap]

mcp serves agent-toolbelt's tools to an MCP client (Claude Desktop, Cursor, VS Code, other
agents) over stdio, or over Streamable HTTP with --http: files, shell, task list, date
and time, and scratch notes, all jailed to DIR.

serve-workspace is the far end of connectWorkspace(): run in a box (through ssh, docker
exec -i, kubectl exec -i, bwrap), it serves DIR over stdio to the caller's tools. The
options below are mcp's; \`agent-toolbelt serve-workspace --help\` shows its own.

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
                        job_list). Jobs end when the server stops; with --session-store
                        they live in DIR/.toolbelt/jobs/, outlive it and are seen by
                        every instance.
  --github              Add the GitHub tools (gh_list_issues, gh_view_pr, gh_create_pr, ...).
                        Needs the gh CLI, logged in.
  --skills              Add load_skill and list the skills (Agent Skills: folders with a
                        SKILL.md) found in DIR/.agents/skills, .claude/skills and skills.
  --mode MODE           Which calls run without asking. ask (the default): overwriting or
                        deleting a file, running a command and the GitHub writes ask;
                        reading, creating, editing and moving files do not. accept-edits:
                        every file change but deleting runs unasked. plan: file changes
                        and commands are refused. auto: nothing asks.
  --ask-for-changes     Ask before every change: creating, editing, moving and deleting
                        files and running commands. Only with --mode ask.
  --http                Serve over Streamable HTTP at http://HOST:PORT/mcp instead of
                        stdio, with a session of its own for each MCP client.
  --session-store URL   Keep each conversation's session (read snapshots, task list,
                        "always" answers) in a store, so several instances serve it:
                        file:DIR, postgres://... (needs pg) or redis://... (needs redis).
                        Default: in this process's memory.
  --host HOST           The address --http listens on. Default: 127.0.0.1, this machine
                        only; any other address needs a token or OAuth.
  --port N              The port --http listens on. Default: 8765; 0 picks a free one.
  --token-file FILE     With --http, every request must carry the token in FILE (or in
                        the TOOLBELT_MCP_TOKEN environment variable) as "Authorization:
                        Bearer TOKEN". At least 16 characters.
  --oauth-issuer URL    With --http, accept OAuth access tokens (JWTs) from this
                        authorization server instead of a token; needs --oauth-resource.
                        Scopes: toolbelt:read (reading tools), toolbelt:write (changes),
                        toolbelt:shell (run_shell).
  --oauth-resource URL  This server's address as clients reach it, such as
                        https://tools.example.com/mcp; tokens must be issued for it.
  --oauth-jwks-uri URL  Where the issuer publishes its signing keys. Default: read from
                        the issuer's metadata.
  --allow-origin LIST   Web origins that may call the --http server from a browser,
                        comma-separated or repeated: --allow-origin https://app.example.com.
                        Default: only pages served from this machine.
  -h, --help            Show this help.
  -v, --version         Show the version.

Approval: a client that supports MCP elicitation shows each question to the user; with
other clients a call that would ask is refused, and the model is told which flag allows it.

Example (an MCP client's server entry; the MCP SDK is an optional peer of agent-toolbelt):
  { "command": "npx", "args": ["-y", "-p", "agent-toolbelt", "-p", "@modelcontextprotocol/server",
    "agent-toolbelt", "mcp", "--root", "/path/to/project"] }
`;

/** The port `--http` listens on when `--port` is left out. */
export const DEFAULT_HTTP_PORT = 8765;

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
  readonly askForChanges: boolean;
  /** Set with `--http`: serve over Streamable HTTP instead of stdio. */
  readonly http?: McpCliHttpOptions;
  /** Set with `--session-store`: where the conversations' sessions live. */
  readonly sessionStore?: SessionStoreSpec;
}

/** A `--session-store` value: a folder for the file store, or a database's URL. */
export type SessionStoreSpec =
  | { readonly kind: 'file'; readonly dir: string }
  | { readonly kind: 'postgres'; readonly connectionString: string }
  | { readonly kind: 'redis'; readonly url: string };

/** What `--http` and its flags ask for. */
export interface McpCliHttpOptions {
  readonly host: string;
  readonly port: number;
  readonly tokenFile?: string;
  readonly allowedOrigins: readonly string[];
  /** Set with `--oauth-issuer` and `--oauth-resource`: access tokens from an authorization server. */
  readonly oauth?: { readonly issuer: string; readonly resource: string; readonly jwksUri?: string };
}

/** A mistake on the command line; the message says what to change. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/** The flags `parseArgs` reads. */
const OPTIONS = {
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
  'ask-for-changes': { type: 'boolean', default: false },
  http: { type: 'boolean', default: false },
  host: { type: 'string' },
  port: { type: 'string' },
  'token-file': { type: 'string' },
  'allow-origin': { type: 'string', multiple: true },
  'oauth-issuer': { type: 'string' },
  'oauth-resource': { type: 'string' },
  'oauth-jwks-uri': { type: 'string' },
  'session-store': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} as const;

/** Reads the arguments after `agent-toolbelt`. Throws {@link CliUsageError} for anything wrong. */
export function parseCli(args: readonly string[]): CliCommand {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], allowPositionals: true, strict: true, options: OPTIONS });
  } catch (error) {
    throw new CliUsageError(parseErrorText(error as Error & { code?: string }, Object.keys(OPTIONS)));
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: 'help' };
  if (values.version) return { command: 'version' };
  if (positionals.length === 0) throw new CliUsageError('Missing the command. Run `agent-toolbelt mcp --root DIR`, or `agent-toolbelt --help`.');
  if (positionals[0] !== 'mcp' || positionals.length > 1) {
    throw new CliUsageError(`Unknown command \`${positionals.join(' ')}\`. The commands are \`mcp\` (\`agent-toolbelt mcp --root DIR\`) and \`serve-workspace\` (the far end of a remote workspace).`);
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
    throw new CliUsageError(`${shellFlags.join(', ')} ${shellFlags.length === 1 ? 'configures' : 'configure'} run_shell, which ${values['read-only'] ? '`--read-only`' : '`--no-shell`'} leaves out. Drop one of them.`);
  }
  if (values['read-only'] && values['keep-backups']) {
    throw new CliUsageError('`--keep-backups` has nothing to do with `--read-only`: no file is changed. Drop one of them.');
  }
  if (values['ask-for-changes'] && values.mode !== 'ask') {
    throw new CliUsageError(`\`--ask-for-changes\` asks before every change, which \`--mode ${values.mode}\` decides otherwise. Drop one of them.`);
  }
  const httpFlags = [values.host !== undefined && '--host', values.port !== undefined && '--port', values['token-file'] !== undefined && '--token-file', values['allow-origin'] && '--allow-origin', ...oauthFlagNames(values)].filter(Boolean);
  if (!values.http && httpFlags.length > 0) {
    throw new CliUsageError(`${httpFlags.join(', ')} ${httpFlags.length === 1 ? 'configures' : 'configure'} the HTTP server, which only \`--http\` starts. Add \`--http\` or drop ${httpFlags.length === 1 ? 'it' : 'them'}.`);
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
      askForChanges: values['ask-for-changes'],
      ...(values.http ? { http: httpOptions(values) } : {}),
      ...(values['session-store'] === undefined ? {} : { sessionStore: sessionStoreSpec(values['session-store']) }),
    },
  };
}

function sessionStoreSpec(value: string): SessionStoreSpec {
  if (value.startsWith('file:') && value.length > 'file:'.length) return { kind: 'file', dir: value.slice('file:'.length) };
  if (/^postgres(ql)?:\/\/./.test(value)) return { kind: 'postgres', connectionString: value };
  if (/^rediss?:\/\/./.test(value)) return { kind: 'redis', url: value };
  throw new CliUsageError(`Expected \`--session-store\` to be file:DIR, postgres://USER@HOST/DB or redis://HOST:PORT, got \`${value}\`.`);
}

function httpOptions(values: { host?: string; port?: string; 'token-file'?: string; 'allow-origin'?: string[] } & OAuthFlags): McpCliHttpOptions {
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '') throw new CliUsageError('Expected `--host` to be an address such as 127.0.0.1 or 0.0.0.0, got an empty one.');
  const port = values.port === undefined ? DEFAULT_HTTP_PORT : Number(values.port);
  if (!/^\d+$/.test(values.port ?? '0') || port > 65_535) {
    throw new CliUsageError(`Expected \`--port\` to be a number from 0 to 65535, got \`${values.port}\`.`);
  }
  const origins = values['allow-origin']?.flatMap((value) => value.split(',')).map((item) => item.trim()) ?? [];
  for (const origin of origins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
      throw new CliUsageError(`Expected \`--allow-origin\` to list origins such as https://app.example.com (scheme, host and port, no path), got \`${origin}\`.`);
    }
  }
  const tokenFile = values['token-file'];
  if (tokenFile !== undefined && tokenFile.trim() === '') throw new CliUsageError('Expected `--token-file` to name a file, got an empty name.');
  const oauth = oauthOptions(values);
  return { host, port, ...(tokenFile === undefined ? {} : { tokenFile }), allowedOrigins: origins, ...(oauth === undefined ? {} : { oauth }) };
}

type OAuthFlags = { 'token-file'?: string; 'oauth-issuer'?: string; 'oauth-resource'?: string; 'oauth-jwks-uri'?: string };

function oauthFlagNames(values: OAuthFlags): string[] {
  return (['oauth-issuer', 'oauth-resource', 'oauth-jwks-uri'] as const).filter((flag) => values[flag] !== undefined).map((flag) => `--${flag}`);
}

/** The OAuth flags, checked as URLs here; the handler checks the rest (https off loopback). */
function oauthOptions(values: OAuthFlags): McpCliHttpOptions['oauth'] {
  const { 'oauth-issuer': issuer, 'oauth-resource': resource, 'oauth-jwks-uri': jwksUri } = values;
  if (issuer === undefined && resource === undefined && jwksUri === undefined) return undefined;
  if (issuer === undefined || resource === undefined) {
    throw new CliUsageError('OAuth needs both `--oauth-issuer URL` (the authorization server) and `--oauth-resource URL` (this server\'s address as clients reach it).');
  }
  if (values['token-file'] !== undefined) throw new CliUsageError('`--token-file` and `--oauth-issuer` each say how requests prove who sends them. Keep one of them.');
  for (const [flag, value] of [['--oauth-issuer', issuer], ['--oauth-resource', resource], ['--oauth-jwks-uri', jwksUri]] as const) {
    if (value !== undefined && !URL.canParse(value)) throw new CliUsageError(`Expected \`${flag}\` to be a URL such as https://auth.example.com, got \`${value}\`.`);
  }
  return { issuer, resource, ...(jwksUri === undefined ? {} : { jwksUri }) };
}

function splitList(values: string[] | undefined, flag: string): string[] | undefined {
  if (values === undefined) return undefined;
  const items = values.flatMap((value) => value.split(',')).map((item) => item.trim());
  if (items.some((item) => item === '')) throw new CliUsageError(`Expected \`${flag}\` to list command prefixes separated by commas, got \`${values.join(',')}\`.`);
  return items;
}
