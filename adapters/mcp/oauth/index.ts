/** @module The MCP HTTP endpoint as an OAuth 2.1 resource server: metadata, token and scope checks. */
export { createOAuthResourceServer, type OAuthResourceServer } from './resource-server.js';
export { DEFAULT_CLOCK_TOLERANCE_SECONDS, DEFAULT_OAUTH_ALGORITHMS, DEFAULT_OAUTH_SCOPES, type McpOAuthOptions, type OAuthIntrospectionOptions, type OAuthScopeNeed } from './options.js';
export { metadataPathsOf, PROTECTED_RESOURCE_METADATA_PATH } from './metadata.js';
export { defaultScopeNeed } from './scopes.js';
export type { OAuthPrincipal } from './token-verdict.js';
