import { isLoopbackHost } from '../http-security.js';

/** What a tool call may need a token to allow: reading, changing, or running commands. */
export type OAuthScopeNeed = 'read' | 'write' | 'shell';

/** The scope names a token carries for each need, unless {@link McpOAuthOptions.scopes} renames them. */
export const DEFAULT_OAUTH_SCOPES: Readonly<Record<OAuthScopeNeed, string>> = {
  read: 'toolbelt:read',
  write: 'toolbelt:write',
  shell: 'toolbelt:shell',
};

/** Seconds of clock difference tolerated between this server and the authorization server: 5. */
export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 5;

/** The signature algorithms accepted by default: asymmetric ones only (a JWKS never holds a shared secret). */
export const DEFAULT_OAUTH_ALGORITHMS: readonly string[] = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

/**
 * The MCP endpoint as an OAuth 2.1 resource server (the MCP authorization specification):
 * every request carries an access token (a JWT) issued by `issuer` for `resource`.
 */
export interface McpOAuthOptions {
  /** The authorization server's issuer identifier (`https://auth.example.com`); a token's `iss` must be exactly this. */
  readonly issuer: string;
  /**
   * This server's canonical URI, as clients reach it (`https://tools.example.com/mcp`): the
   * resource indicator (RFC 8707) clients ask tokens for. A token's `aud` must contain it,
   * so a token issued for another server is refused here. The metadata document is served
   * at `/.well-known/oauth-protected-resource` followed by its path.
   */
  readonly resource: string;
  /** Where the issuer publishes its signing keys. @default the `jwks_uri` of the issuer's metadata (RFC 8414, else OpenID discovery) */
  readonly jwksUri?: string;
  /** The authorization servers the metadata document names for clients. @default [issuer] */
  readonly authorizationServers?: readonly string[];
  /** Other names for the scopes. @default {@link DEFAULT_OAUTH_SCOPES} */
  readonly scopes?: Partial<Record<OAuthScopeNeed, string>>;
  /** What a tool needs, by tool name, where its kind says otherwise (a tool of your own that only reads, for example). */
  readonly toolScopes?: Readonly<Record<string, OAuthScopeNeed>>;
  /** @default {@link DEFAULT_CLOCK_TOLERANCE_SECONDS} */
  readonly clockToleranceSeconds?: number;
  /** @default {@link DEFAULT_OAUTH_ALGORITHMS} */
  readonly algorithms?: readonly string[];
  /** A name for people, in the metadata document (`resource_name`). */
  readonly resourceName?: string;
  /**
   * Accept opaque access tokens too: each one is sent to the issuer's introspection endpoint
   * (RFC 7662) with these client credentials. An active answer is reused for 30 seconds, so a
   * revoked token may still be accepted that long. JWTs are still verified locally.
   * @default none: only JWT access tokens are accepted
   */
  readonly introspection?: OAuthIntrospectionOptions;
}

/** The client this server introspects tokens as, and where. */
export interface OAuthIntrospectionOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  /** @default the `introspection_endpoint` of the issuer's metadata */
  readonly endpoint?: string;
}

/** {@link McpOAuthOptions} checked, with every default filled in. */
export interface ResolvedOAuthOptions {
  readonly issuer: string;
  readonly resource: URL;
  /** The resource exactly as configured: what `aud` must contain and the metadata says. */
  readonly resourceId: string;
  readonly jwksUri: URL | undefined;
  readonly authorizationServers: readonly string[];
  readonly scopes: Readonly<Record<OAuthScopeNeed, string>>;
  readonly toolScopes: Readonly<Record<string, OAuthScopeNeed>>;
  readonly clockToleranceSeconds: number;
  readonly algorithms: readonly string[];
  readonly resourceName: string | undefined;
  readonly introspection: { readonly clientId: string; readonly clientSecret: string; readonly endpoint: URL | undefined } | undefined;
}

const NEEDS: readonly OAuthScopeNeed[] = ['read', 'write', 'shell'];

/** Checks the options once, when the handler is made; throws a `TypeError` naming the option and the fix. */
export function resolveOAuthOptions(options: McpOAuthOptions): ResolvedOAuthOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`Expected the \`oauth\` option to be an object such as { issuer: 'https://auth.example.com', resource: 'https://tools.example.com/mcp' }, got \`${String(options)}\`.`);
  }
  absoluteUrl(options.issuer, 'oauth.issuer', 'https://auth.example.com');
  const resource = absoluteUrl(options.resource, 'oauth.resource', 'https://tools.example.com/mcp');
  const jwksUri = options.jwksUri === undefined ? undefined : absoluteUrl(options.jwksUri, 'oauth.jwksUri', 'https://auth.example.com/jwks');
  const authorizationServers = options.authorizationServers ?? [options.issuer];
  if (!Array.isArray(authorizationServers) || authorizationServers.length === 0) {
    throw new TypeError(`Expected the \`oauth.authorizationServers\` option to be a non-empty array of issuer URLs, got \`${JSON.stringify(authorizationServers)}\`.`);
  }
  authorizationServers.forEach((server, index) => absoluteUrl(server, `oauth.authorizationServers[${index}]`, 'https://auth.example.com'));
  const scopes = { ...DEFAULT_OAUTH_SCOPES, ...options.scopes };
  for (const need of NEEDS) {
    if (typeof scopes[need] !== 'string' || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scopes[need])) {
      throw new TypeError(`Expected \`oauth.scopes.${need}\` to be a scope name (printable, no spaces or quotes), got \`${String(scopes[need])}\`.`);
    }
  }
  const toolScopes = options.toolScopes ?? {};
  for (const [tool, need] of Object.entries(toolScopes)) {
    if (!NEEDS.includes(need)) throw new TypeError(`Expected \`oauth.toolScopes.${tool}\` to be one of ${NEEDS.join(', ')}, got \`${String(need)}\`.`);
  }
  const clockToleranceSeconds = options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
  if (!Number.isFinite(clockToleranceSeconds) || clockToleranceSeconds < 0 || clockToleranceSeconds > 300) {
    throw new TypeError(`Expected the \`oauth.clockToleranceSeconds\` option to be a number of seconds from 0 to 300, got \`${String(clockToleranceSeconds)}\`.`);
  }
  const algorithms = options.algorithms ?? DEFAULT_OAUTH_ALGORITHMS;
  if (!Array.isArray(algorithms) || algorithms.length === 0 || algorithms.some((alg) => typeof alg !== 'string' || alg === 'none' || alg.startsWith('HS'))) {
    throw new TypeError(`Expected the \`oauth.algorithms\` option to list asymmetric JWS algorithms such as ['RS256', 'ES256'], got \`${JSON.stringify(algorithms)}\`.`);
  }
  return {
    introspection: resolveIntrospection(options.introspection),
    issuer: options.issuer,
    resource,
    resourceId: options.resource,
    jwksUri,
    authorizationServers,
    scopes,
    toolScopes,
    clockToleranceSeconds,
    algorithms,
    resourceName: options.resourceName,
  };
}

function resolveIntrospection(introspection: OAuthIntrospectionOptions | undefined): ResolvedOAuthOptions['introspection'] {
  if (introspection === undefined) return undefined;
  for (const key of ['clientId', 'clientSecret'] as const) {
    if (typeof introspection?.[key] !== 'string' || introspection[key] === '') {
      throw new TypeError(`Expected \`oauth.introspection.${key}\` to be a non-empty string: the credentials of the client this server introspects tokens as.`);
    }
  }
  const endpoint = introspection.endpoint === undefined ? undefined : absoluteUrl(introspection.endpoint, 'oauth.introspection.endpoint', 'https://auth.example.com/introspect');
  return { clientId: introspection.clientId, clientSecret: introspection.clientSecret, endpoint };
}

/** An https URL (http only on loopback, as OAuth 2.1 allows), without query or fragment. */
function absoluteUrl(value: unknown, option: string, example: string): URL {
  const url = typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined;
  const secure = url !== undefined && (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname)));
  if (url === undefined || !secure || url.hash !== '' || url.search !== '') {
    throw new TypeError(
      `Expected the \`${option}\` option to be an absolute https URL without query or fragment (http only on loopback), such as \`${example}\`, got \`${String(value)}\`.`,
    );
  }
  return url;
}
