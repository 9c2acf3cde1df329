#!/usr/bin/env node
/** @module agent-toolbelt CLI: `agent-toolbelt mcp --root DIR` serves the tools over stdio. */
// First: on a Node.js older than 22, say which version is needed and exit before anything else loads.
import '../../src/exit-on-old-node.js';
import { CliUsageError, HELP_TEXT, parseCli } from './cli-options.js';
import { packageVersion } from './package-version.js';

/** How to run the CLI when the optional MCP SDK is not installed next to it. */
const MISSING_SDK_TEXT =
  'The MCP server needs the `@modelcontextprotocol/server` package (the MCP TypeScript SDK, v2), an optional peer dependency of agent-toolbelt. Install it next to agent-toolbelt (`npm install @modelcontextprotocol/server`), or run `npx -y -p agent-toolbelt -p @modelcontextprotocol/server agent-toolbelt mcp --root DIR`.';

async function main(args: readonly string[]): Promise<void> {
  if (args[0] === 'serve-workspace') {
    // The box end of connectWorkspace(): core only, nothing MCP-specific is loaded.
    const { runServeWorkspaceCommand } = await import('../../src/box-server/serve-command.js');
    process.exit(await runServeWorkspaceCommand(args.slice(1), packageVersion()));
  }
  const parsed = parseCli(args);
  if (parsed.command === 'help') return void process.stdout.write(HELP_TEXT);
  if (parsed.command === 'version') return void process.stdout.write(`${packageVersion()}\n`);
  // Loaded only now, so --help and flag errors work without the optional MCP SDK.
  let serve: typeof import('./serve.js');
  try {
    serve = await import('./serve.js');
  } catch (error) {
    const missing = (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes('@modelcontextprotocol/server');
    if (!missing) throw error;
    throw Object.assign(new Error(MISSING_SDK_TEXT), { name: 'MissingDependencyError' });
  }
  await serve.serveCli(parsed.options, packageVersion());
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const expected = error instanceof CliUsageError || error instanceof TypeError || (error instanceof Error && error.name !== 'Error');
  process.stderr.write(`agent-toolbelt: ${expected ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`);
  process.exit(error instanceof CliUsageError ? 2 : 1);
});
