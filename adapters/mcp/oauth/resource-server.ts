import { collectTools, withBackground, type ToolCollection } from '../../../src/index.js';
import { bearerChallenge, metadataDocument, metadataPaths, metadataResponse, metadataUrl } from './metadata.js';
import { resolveOAuthOptions, type McpOAuthOptions } from './options.js';
import { scopeShortfall, scopesSupported, toolScopeTable } from './scopes.js';
import type { OAuthPrincipal } from './token-verdict.js';
import { createTokenVerifier } from './verify-token.js';

/** The OAuth side of an MCP HTTP handler: the metadata document, the token check and the scope check. */
export interface OAuthResourceServer {
  /** Paths besides the MCP endpoint that must reach the handler: the metadata document's. */
  readonly metadataPaths: readonly string[];
  /** The answer to a request for the metadata document, or `undefined` for any other request. */
  answerMetadata(request: Request): Response | undefined;
  /** Who the request's access token speaks for, or the `401` (`503` when the keys cannot be fetched) to answer. */
  authenticate(request: Request): Promise<{ readonly principal: OAuthPrincipal } | { readonly refusal: Response }>;
  /** The `403 insufficient_scope` to answer when the message calls a tool the token's scopes do not allow, else `undefined`. */
  authorize(principal: OAuthPrincipal, message: unknown): Response | undefined;
}

/**
 * Makes the MCP endpoint an OAuth 2.1 resource server as the MCP authorization specification
 * describes it: it serves its Protected Resource Metadata (RFC 9728) and names it in every
 * `401`; it accepts only JWT access tokens signed by the issuer's keys, for this resource
 * (RFC 8707), unexpired; and it refuses a tool call the token's scopes do not cover with
 * `403 insufficient_scope` naming the scopes to ask for (step-up authorization).
 */
export function createOAuthResourceServer(options: McpOAuthOptions, collections: readonly ToolCollection[], background?: readonly string[]): OAuthResourceServer {
  const resolved = resolveOAuthOptions(options);
  const served = background === undefined ? collections : withBackground(collections, { tools: background });
  const table = toolScopeTable(collectTools(served).values(), resolved);
  const scopes = scopesSupported(table, resolved);
  const paths = metadataPaths(resolved.resource);
  const document = metadataDocument(resolved, scopes);
  const resourceMetadata = metadataUrl(resolved.resource);
  const verify = createTokenVerifier(resolved);

  return {
    metadataPaths: paths,
    answerMetadata(request) {
      return paths.includes(new URL(request.url).pathname) ? metadataResponse(request.method, document) : undefined;
    },
    async authenticate(request) {
      const token = /^Bearer +([\w.~+/-]+=*) *$/i.exec(request.headers.get('authorization') ?? '')?.[1];
      if (token === undefined) {
        const challenge = bearerChallenge({ resource_metadata: resourceMetadata, scope: scopes.join(' ') });
        return { refusal: refuse(401, `This server needs an OAuth access token from ${resolved.issuer} for ${resolved.resourceId}: send \`Authorization: Bearer <token>\`. Its metadata, at ${resourceMetadata}, says where to get one.`, challenge) };
      }
      const verdict = await verify(token);
      if ('principal' in verdict) return verdict;
      if (verdict.refused === 'unavailable') return { refusal: refuse(503, verdict.description, undefined, { 'retry-after': '10' }) };
      const challenge = bearerChallenge({ error: 'invalid_token', error_description: verdict.description, resource_metadata: resourceMetadata, scope: scopes.join(' ') });
      return { refusal: refuse(401, verdict.description, challenge) };
    },
    authorize(principal, message) {
      const shortfall = scopeShortfall(message, table, principal.scopes);
      if (shortfall === undefined) return undefined;
      const named = shortfall.missing.map((scope) => `\`${scope}\``).join(' and ');
      const description = `${shortfall.tool} needs the scope ${shortfall.missing.join(' ')}, which the access token was not granted.`;
      // The scopes of this server the token has, with those it lacks: a 2025-era client asks for
      // exactly these, so it keeps what it had; a 2026-07-28 one adds what it asked for before.
      // Scopes of other resources (offline_access, openid) are not this server's to name.
      const wanted = scopes.filter((scope) => principal.scopes.has(scope) || shortfall.missing.includes(scope)).join(' ');
      const text = `\`${shortfall.tool}\` needs the ${named} scope, which this access token was not granted, so it was not run. Get a token with scope "${wanted}" from the authorization server (the user may have to consent), or use only the tools the token allows.`;
      return refuse(403, text, bearerChallenge({ error: 'insufficient_scope', scope: wanted, resource_metadata: resourceMetadata, error_description: description }), {}, shortfall.id);
    },
  };
}

/** A JSON-RPC error answer with its challenge; `id` is the refused request's, when there was one. */
function refuse(status: number, message: string, challenge: string | undefined, headers: Record<string, string> = {}, id: string | number | null = null): Response {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id });
  return new Response(body, { status, headers: { 'content-type': 'application/json', ...(challenge === undefined ? {} : { 'www-authenticate': challenge }), ...headers } });
}
