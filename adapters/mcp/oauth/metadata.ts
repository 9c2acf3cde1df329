import type { ResolvedOAuthOptions } from './options.js';

/** Where RFC 9728 puts a resource's metadata: this prefix, then the resource's path. */
export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/**
 * The paths the metadata document is served at: the resource's own (`/.well-known/oauth-protected-resource/mcp`
 * for `https://host/mcp`, RFC 9728 §3.1) first, and the bare one, which MCP clients try next.
 */
export function metadataPaths(resource: URL): string[] {
  const path = resource.pathname.replace(/\/$/, '');
  return path === '' ? [PROTECTED_RESOURCE_METADATA_PATH] : [`${PROTECTED_RESOURCE_METADATA_PATH}${path}`, PROTECTED_RESOURCE_METADATA_PATH];
}

/** The address of the metadata document, for `resource_metadata` in `WWW-Authenticate`. */
export function metadataUrl(resource: URL): string {
  return new URL(metadataPaths(resource)[0]!, resource.origin).href;
}

/** The Protected Resource Metadata document (RFC 9728 §2) of this server. */
export function metadataDocument(options: ResolvedOAuthOptions, scopes: readonly string[]): Record<string, unknown> {
  return {
    resource: options.resourceId,
    authorization_servers: options.authorizationServers,
    scopes_supported: scopes,
    bearer_methods_supported: ['header'],
    ...(options.resourceName === undefined ? {} : { resource_name: options.resourceName }),
  };
}

/** The headers that let a browser-based client (the MCP Inspector) read the document from another origin. */
const PUBLIC_HEADERS = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, OPTIONS', 'access-control-allow-headers': '*' };

/** The answer to a request for the metadata document: the document for GET and HEAD, the CORS answer for OPTIONS, 405 otherwise. */
export function metadataResponse(method: string, document: Record<string, unknown>): Response {
  if (method === 'OPTIONS') return new Response(null, { status: 204, headers: PUBLIC_HEADERS });
  if (method !== 'GET' && method !== 'HEAD') return new Response(null, { status: 405, headers: { ...PUBLIC_HEADERS, allow: 'GET, HEAD, OPTIONS' } });
  const body = method === 'HEAD' ? null : JSON.stringify(document);
  return new Response(body, { status: 200, headers: { ...PUBLIC_HEADERS, 'content-type': 'application/json', 'cache-control': 'max-age=3600' } });
}

/**
 * A `WWW-Authenticate: Bearer` challenge (RFC 6750 §3) from its parameters, in order, those
 * left undefined left out. Values are quoted; characters a quoted value may not hold are replaced.
 */
export function bearerChallenge(parameters: Record<string, string | undefined>): string {
  const pairs = Object.entries(parameters).flatMap(([name, value]) => (value === undefined ? [] : [`${name}="${value.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, "'")}"`]));
  return `Bearer ${pairs.join(', ')}`;
}

/** {@link metadataPaths} of the configured resource (checked when the handler is made; none for a bad URL). */
export function metadataPathsOf(options: { readonly resource: string }): string[] {
  return URL.canParse(options.resource) ? metadataPaths(new URL(options.resource)) : [];
}
