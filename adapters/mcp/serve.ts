import path from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
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
import { CLI_APPROVAL_HINT, type McpCliOptions } from './cli-options.js';
import { createMcpServer } from './index.js';

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
 * Serves the collections over stdio until the client goes away, then stops the session's
 * background jobs. Nothing but the protocol is written to stdout.
 */
export async function serveOverStdio(options: McpCliOptions, version: string): Promise<void> {
  const collections = cliCollections(options);
  // Skills are found once, at the start, so the server's instructions stay the same.
  if (options.skills) collections.push(await createSkillTools({ workspace: new Workspace(options.root) }));
  const session = createSession();
  const server = createMcpServer(collections, {
    name: 'agent-toolbelt',
    version,
    session,
    mode: options.mode,
    approvalHint: CLI_APPROVAL_HINT,
    ...(options.background ? { background: ['run_shell'] } : {}),
  });
  const transport = new StdioServerTransport();
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await session.close();
    await server.close();
    process.exit(0);
  };
  transport.onclose = () => void shutdown();
  process.stdin.on('end', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  await server.connect(transport);
  process.stderr.write(`agent-toolbelt: serving ${path.resolve(options.root)} over stdio (mode ${options.mode}${options.readOnly ? ', read-only' : ''}).\n`);
}
