#!/usr/bin/env node
/** @module agent-toolbelt CLI: `agent-toolbelt mcp --root DIR` serves the tools over stdio. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  createFileTools,
  createGitHubTools,
  createReadOnlyFileTools,
  createScratchTools,
  createSession,
  createShellTools,
  Workspace,
  type ToolCollection,
} from '../../src/index.js';
import { CliUsageError, HELP_TEXT, parseCli, type McpCliOptions } from './cli-options.js';
import { createMcpServer } from './index.js';

/** What a model is told when a call needs approval that this client cannot ask for. */
export const CLI_APPROVAL_HINT =
  'To allow such calls, the user can restart the agent-toolbelt server with `--mode accept-edits` (file edits run unasked) or `--mode auto` (nothing asks), or use an MCP client that supports elicitation.';

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
  return collections;
}

function packageVersion(): string {
  for (const candidate of ['../../package.json', '../../../package.json']) {
    try {
      const json = JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (json.name === 'agent-toolbelt' && json.version) return json.version;
    } catch {
      // Not at this depth: the file runs from the source tree or from dist/.
    }
  }
  return '0.0.0';
}

async function main(args: readonly string[]): Promise<void> {
  const parsed = parseCli(args);
  if (parsed.command === 'help') {
    process.stdout.write(HELP_TEXT);
    return;
  }
  if (parsed.command === 'version') {
    process.stdout.write(`${packageVersion()}\n`);
    return;
  }
  const options = parsed.options;
  const collections = cliCollections(options);
  const session = createSession();
  const server = createMcpServer(collections, {
    name: 'agent-toolbelt',
    version: packageVersion(),
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

main(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof CliUsageError || error instanceof TypeError || (error instanceof Error && error.name !== 'Error')
    ? error.message
    : String((error as Error)?.stack ?? error);
  process.stderr.write(`agent-toolbelt: ${message}\n`);
  process.exit(error instanceof CliUsageError ? 2 : 1);
});
