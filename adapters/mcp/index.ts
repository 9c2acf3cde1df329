/** @module agent-toolbelt/mcp: serve collections to any MCP client (Claude Desktop, Cursor, IDEs, other agents). */
export { createMcpServer } from './server.js';
export type { McpServerOptions, RefusedCall } from './server-options.js';
export { toolAnnotations } from './annotations.js';
export { createMcpHttpHandler, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from './http.js';
export type { McpHttpHandler, McpHttpOptions, McpRequestOptions } from './http.js';
export { CONVERSATION_META_KEY } from './conversations.js';
export { listenMcpHttp } from './http-listen.js';
export type { McpHttpServer, McpListenOptions } from './http-listen.js';
export { DEFAULT_ELICITATION_TIMEOUT_MS } from './elicitation.js';
export { toCallToolResult } from './tool-listing.js';
export { DEFAULT_CLOCK_TOLERANCE_SECONDS, DEFAULT_OAUTH_ALGORITHMS, DEFAULT_OAUTH_SCOPES, PROTECTED_RESOURCE_METADATA_PATH } from './oauth/index.js';
export type { McpOAuthOptions, OAuthIntrospectionOptions, OAuthScopeNeed } from './oauth/index.js';
