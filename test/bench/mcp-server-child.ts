/**
 * The MCP server of issue 30's `mcp` row, in a process of its own so that its CPU (main thread
 * and search threads) is not shared with the 20 clients measuring it, and so it can be profiled
 * alone (`node --cpu-prof` through `BENCH_SERVER_NODE_OPTIONS`). Serves the file tools over
 * Streamable HTTP on loopback with `listenMcpHttp`, prints `{"url": …}` and runs until its
 * standard input closes.
 */
import { listenMcpHttp } from '../../adapters/mcp/http-listen.js';
import { createFileTools } from '../../src/dialects/file-tools.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { SKIPPED_FOLDERS } from './tree.js';

const root = process.argv[2];
if (root === undefined) throw new Error('Usage: mcp-server-child.ts <workspace root>');
const server = await listenMcpHttp([createFileTools({ workspace: new Workspace(root), skippedFolders: SKIPPED_FOLDERS })], { mode: 'auto', maxSessions: 100 });
process.stdout.write(`${JSON.stringify({ url: server.url.href })}\n`);
process.stdin.resume();
process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
