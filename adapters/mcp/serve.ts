import path from 'node:path';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import {
  createAskUserTools,
  createDateTimeTools,
  createFileTools,
  createGitHubTools,
  createReadOnlyFileTools,
  createScratchTools,
  createSession,
  createShellTools,
  createSkillTools,
  createTaskListTools,
  Workspace,
  type ToolCollection,
} from '../../src/index.js';
import { cliApprovalHint } from './cli-approval-hint.js';
import { openCliSessionStore, requestStateKeysFromEnvironment } from './cli-session-store.js';
import type { McpCliHttpOptions, McpCliOptions } from './cli-options.js';
import { readToken } from './cli-token.js';
import { listenMcpHttp } from './http-listen.js';
import { createMcpServer } from './server.js';
import type { McpServerOptions } from './server-options.js';

/** The collections the command line asks for. Throws for a missing root or a wrong shell option, naming it. */
export function cliCollections(options: McpCliOptions): ToolCollection[] {
  const workspace = new Workspace(options.root);
  const collections: ToolCollection[] = [
    options.readOnly ? createReadOnlyFileTools({ workspace }) : createFileTools({ workspace, keepBackups: options.keepBackups }),
  ];
  if (options.shell) {
    collections.push(createShellTools({ workspace, allow: options.allow, deny: options.deny, sandbox: options.sandbox }));
  }
  // Scratch notes are written to DIR/.toolbelt/, so a read-only server leaves them out.
  if (!options.readOnly) collections.push(createScratchTools({ workspace }));
  if (options.github) collections.push(createGitHubTools({ workspace }));
  // The task list lives in the session (one per server process); ask_user_question is shown
  // only to clients that can display a form (elicitation).
  collections.push(createTaskListTools(), createDateTimeTools(), createAskUserTools());
  return collections;
}

/**
 * Serves what the command line asks for: over stdio until the client goes away, or over
 * Streamable HTTP with `--http` until the process is stopped. Either way the sessions'
 * background jobs end with the server, and nothing but the protocol is written to stdout.
 */
export async function serveCli(options: McpCliOptions, version: string): Promise<void> {
  const collections = cliCollections(options);
  // Skills are found once, at the start, so the server's instructions stay the same.
  if (options.skills) collections.push(await createSkillTools({ workspace: new Workspace(options.root) }));
  const requestStateKeys = requestStateKeysFromEnvironment(process.env);
  const sessionStore = options.sessionStore === undefined ? undefined : await openCliSessionStore(options.sessionStore);
  const serverOptions = {
    name: 'agent-toolbelt',
    version,
    mode: options.mode,
    askForChanges: options.askForChanges,
    approvalHint: cliApprovalHint(options),
    ...(options.background ? { background: ['run_shell'] } : {}),
    ...(requestStateKeys === undefined ? {} : { requestStateKeys }),
    ...(sessionStore === undefined ? {} : { sessionStore }),
  };
  const shown = `${path.resolve(options.root)} (mode ${options.mode}${options.askForChanges ? ', asking for every change' : ''}${options.readOnly ? ', read-only' : ''})`;
  if (options.http !== undefined) return serveOverHttp(collections, serverOptions, options.http, shown);

  // One process, one client: its conversation's session, whichever era the client speaks
  // (the SDK makes a server for the connection, and one for a `server/discover` probe).
  const session = sessionStore === undefined ? createSession() : undefined;
  const handle = serveStdio(() => createMcpServer(collections, session === undefined ? serverOptions : { ...serverOptions, session }), {
    onerror: (error) => process.stderr.write(`agent-toolbelt: ${error.message}\n`),
  });
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await session?.close();
    await handle.close();
    await sessionStore?.close();
    process.exit(0);
  };
  process.stdin.on('end', () => void shutdown());
  process.stdin.on('close', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  process.stderr.write(`agent-toolbelt: serving ${shown} over stdio.\n`);
}

async function serveOverHttp(collections: ToolCollection[], serverOptions: McpServerOptions, http: McpCliHttpOptions, shown: string): Promise<void> {
  const token = await readToken(http.tokenFile, process.env.TOOLBELT_MCP_TOKEN);
  const running = await listenMcpHttp(collections, {
    ...serverOptions,
    host: http.host,
    port: http.port,
    allowedOrigins: http.allowedOrigins,
    ...(token === undefined ? {} : { token }),
    ...(http.oauth === undefined ? {} : { oauth: http.oauth }),
  });
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await running.close();
    await serverOptions.sessionStore?.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  process.stderr.write(`agent-toolbelt: serving ${shown} over Streamable HTTP at ${running.url.href}${token === undefined ? '' : ', token required'}${http.oauth === undefined ? '' : `, OAuth access tokens from ${http.oauth.issuer} required`}.\n`);
}
