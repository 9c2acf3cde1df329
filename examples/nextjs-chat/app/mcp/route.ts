import { createFileTools, createShellTools, createTaskListTools, Workspace } from 'agent-toolbelt';
import { createMcpHttpHandler } from 'agent-toolbelt/mcp';
import { sessionStore, workspaceRoot } from '../../lib/toolbelt';

// The toolbelt as an MCP server at /mcp, from a route handler: stateless, so any number of
// instances (serverless functions, `next start` workers behind a balancer) serve any request.
// Each conversation's session lives in the chat's session store: Postgres with DATABASE_URL,
// Redis with REDIS_URL, else files in the workspace's private folder (one machine). 2026-07-28
// clients send every request on its own; 2025-era clients get an Mcp-Session-Id that any instance
// accepts. Needs `@modelcontextprotocol/server` installed beside agent-toolbelt.

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const workspace = new Workspace(workspaceRoot());

const handler = createMcpHttpHandler([createFileTools({ workspace }), createShellTools({ workspace }), createTaskListTools()], {
  // The chat's own store (lib/toolbelt.ts): MCP conversations are kept under keys of their own.
  sessionStore: await sessionStore(),
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
