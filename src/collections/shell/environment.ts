/**
 * Added to every command's environment so tools fail instead of waiting for input nobody
 * will type: git never asks for credentials or opens an editor, pagers print everything,
 * package managers take their defaults, and colours are off. Commands also run without a
 * controlling terminal and with standard input closed, so a prompt reads end-of-file.
 *
 * `CI` is deliberately not set: test runners treat it as "never write new snapshots", which
 * changes what a test run means. Pass `env: { CI: '1' }` to set it.
 */
export const NON_INTERACTIVE_ENVIRONMENT: Readonly<Record<string, string>> = Object.freeze({
  GIT_TERMINAL_PROMPT: '0',
  GCM_INTERACTIVE: 'never',
  GIT_EDITOR: 'true',
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  MANPAGER: 'cat',
  SYSTEMD_PAGER: '',
  NO_COLOR: '1',
  FORCE_COLOR: '0',
  TERM: 'dumb',
  DEBIAN_FRONTEND: 'noninteractive',
  PIP_NO_INPUT: '1',
  NPM_CONFIG_FUND: 'false',
  NPM_CONFIG_UPDATE_NOTIFIER: 'false',
  HOMEBREW_NO_AUTO_UPDATE: '1',
});

/** How a command's environment is built. */
export interface EnvironmentOptions {
  /** Variables to set, or to remove with `undefined`. Applied last. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Start from the host's environment (`true`) or from `PATH` alone (`false`). */
  readonly inheritEnv: boolean;
}

/**
 * The environment a command runs with: the host's (or only its `PATH`), then
 * {@link NON_INTERACTIVE_ENVIRONMENT}, then the host's own `env` overrides and removals.
 *
 * A host started by ssh (`ssh box agent-toolbelt serve-workspace …`, `ssh box node agent.js`)
 * has `SSH_CLIENT` and, because the login shell exec'd it, `SHLVL=0`. Bash takes a
 * non-interactive shell with both for the command of an ssh login and reads `~/.bashrc`, so
 * every `bash -c` a command starts would run the box's profile (seconds, and whatever it
 * prints). Such an environment gets `SHLVL=1`, what a command typed at the ssh prompt sees;
 * `env` may still set or remove it.
 */
export function buildEnvironment(options: EnvironmentOptions, host: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const environment: Record<string, string> = {};
  if (options.inheritEnv) {
    for (const [name, value] of Object.entries(host)) if (value !== undefined) environment[name] = value;
    if (takenForSshLogin(environment)) environment.SHLVL = '1';
  } else if (host.PATH !== undefined) {
    environment.PATH = host.PATH;
  }
  Object.assign(environment, NON_INTERACTIVE_ENVIRONMENT);
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete environment[name];
    else environment[name] = value;
  }
  return environment;
}

/** True when bash would read `~/.bashrc` for a `bash -c` in this environment: ssh's variables at shell level 0 (bash's `shell_level < 2` after its own increment). */
function takenForSshLogin(environment: Readonly<Record<string, string>>): boolean {
  if (environment.SSH_CLIENT === undefined && environment.SSH2_CLIENT === undefined) return false;
  const level = Number(environment.SHLVL);
  return !(Number.isInteger(level) && level >= 1);
}

/** Checks the `env` option: names must be non-blank and hold no `=` or NUL; values strings or `undefined`. */
export function validateEnvOption(env: unknown): void {
  if (env === undefined) return;
  if (typeof env !== 'object' || env === null || Array.isArray(env)) {
    throw new TypeError(`Expected the \`env\` option to be an object of variable names to strings (or \`undefined\` to remove one), got \`${String(env)}\` (${describeType(env)}).`);
  }
  for (const [name, value] of Object.entries(env)) {
    if (name.trim() === '' || name.includes('=') || name.includes('\0')) {
      throw new TypeError(`Expected every name in the \`env\` option to be a variable name without \`=\`, got ${JSON.stringify(name)}.`);
    }
    if (value !== undefined && typeof value !== 'string') {
      throw new TypeError(`Expected \`env.${name}\` to be a string, or \`undefined\` to remove the variable, got \`${String(value)}\` (${describeType(value)}).`);
    }
    if (typeof value === 'string' && value.includes('\0')) {
      throw new TypeError(`Expected \`env.${name}\` to hold no NUL byte.`);
    }
  }
}

/** `typeof`, with `null` and arrays named. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
