import path from 'node:path';
import { createFileSessionStore, createFileTools, createShellTools, createTaskListTools, Workspace, type SessionStore } from 'agent-toolbelt';
import { createMcpHttpHandler } from 'agent-toolbelt/mcp';

// The toolbelt as an MCP server at /mcp, from a route handler: stateless, so any number of
// instances (serverless functions, `next start` workers behind a balancer) serve any request.
// Each conversation's session lives in a session store: Postgres with DATABASE_URL, Redis with
// REDIS_URL, else files in the workspace's private folder (one machine). 2026-07-28 clients
// send every request on its own; 2025-era clients get an Mcp-Session-Id that any instance
// accepts. Needs `@modelcontextprotocol/server` installed beside agent-toolbelt.

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const root = path.resolve(/*turbopackIgnore: true*/ process.env.TOOLBELT_WORKSPACE ?? process.cwd());
const workspace = new Workspace(root);

async function openStore(): Promise<SessionStore> {
  if (process.env.DATABASE_URL) {
    const { createPostgresSessionStore } = await import('agent-toolbelt/stores/postgres');
    return createPostgresSessionStore({ connectionString: process.env.DATABASE_URL });
  }
  if (process.env.REDIS_URL) {
    const { createRedisSessionStore } = await import('agent-toolbelt/stores/redis');
    return createRedisSessionStore({ url: process.env.REDIS_URL });
  }
  return createFileSessionStore({ dir: await workspace.privateDir('mcp-sessions') });
}

const handler = createMcpHttpHandler([createFileTools({ workspace }), createShellTools({ workspace }), createTaskListTools()], {
  sessionStore: await openStore(),
  // Every instance signs and checks the questions it puts to modern clients with the same key;
  // put a new key first and keep the previous one to rotate it.
  ...(process.env.TOOLBELT_MCP_STATE_KEY
    ? { requestStateKeys: [process.env.TOOLBELT_MCP_STATE_KEY, process.env.TOOLBELT_MCP_STATE_KEY_PREVIOUS].filter((key): key is string => Boolean(key)) }
    : {}),
  // Over the internet: a token (or the OAuth resource server), and the name the app is reached by.
  ...(process.env.TOOLBELT_MCP_TOKEN ? { token: process.env.TOOLBELT_MCP_TOKEN } : {}),
  ...(process.env.TOOLBELT_MCP_HOSTS ? { allowedHosts: process.env.TOOLBELT_MCP_HOSTS.split(',') } : {}),
});

export const GET = (request: Request) => handler.handleRequest(request);
export const POST = GET;
export const DELETE = GET;
