import { createHash } from 'node:crypto';
import { FETCH_TIMEOUT_MS, metadataEndpoint, type IssuerMetadata } from './issuer-metadata.js';
import type { ResolvedOAuthOptions } from './options.js';
import { EXPIRED, grantedScopes, NOT_YET_VALID, otherAudience, otherIssuer, stringClaim, type TokenVerdict } from './token-verdict.js';

/** How long an active token's introspection answer is reused (never past the token's expiry): 30 seconds. */
export const INTROSPECTION_CACHE_MS = 30_000;
const CACHE_ENTRIES = 1000;

/** The fields of an introspection answer (RFC 7662 §2.2) this server reads. */
type IntrospectionAnswer = {
  readonly active?: unknown;
  readonly scope?: unknown;
  readonly client_id?: unknown;
  readonly sub?: unknown;
  readonly aud?: unknown;
  readonly iss?: unknown;
  readonly exp?: unknown;
  readonly nbf?: unknown;
};

/**
 * Checks opaque access tokens by asking the issuer (token introspection, RFC 7662) as the
 * client of `oauth.introspection`, or `undefined` when that option is not set. The answer must
 * say the token is active, for this resource (`aud`), from the issuer, and unexpired; the
 * subject is its `sub`, else its `client_id` (a client-credentials token speaks for the client).
 * Active answers are kept for {@link INTROSPECTION_CACHE_MS}, so a revoked token may still be
 * accepted that long.
 */
export function createTokenIntrospector(options: ResolvedOAuthOptions, issuerMetadata: () => Promise<IssuerMetadata>): ((token: string) => Promise<TokenVerdict>) | undefined {
  const client = options.introspection;
  if (client === undefined) return undefined;
  const authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString('base64')}`;
  const cache = new Map<string, { readonly verdict: TokenVerdict; readonly until: number }>();
  return async (token) => {
    const key = createHash('sha256').update(token).digest('base64url');
    const cached = cache.get(key);
    if (cached !== undefined && cached.until > Date.now()) return cached.verdict;
    cache.delete(key);
    let answer: IntrospectionAnswer;
    try {
      const endpoint = client.endpoint ?? metadataEndpoint(await issuerMetadata(), 'introspection_endpoint', 'oauth.introspection.endpoint');
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`its introspection endpoint answered HTTP ${response.status}`);
      answer = (await response.json()) as IntrospectionAnswer;
    } catch (error) {
      return { refused: 'unavailable', description: `The authorization server could not say whether the access token is valid (${error instanceof Error ? error.message : String(error)}); try again shortly.` };
    }
    const verdict = judge(answer, options);
    if ('principal' in verdict) {
      const expires = typeof answer.exp === 'number' ? answer.exp * 1000 : Infinity;
      if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      cache.set(key, { verdict, until: Math.min(Date.now() + INTROSPECTION_CACHE_MS, expires) });
    }
    return verdict;
  };
}

function judge(answer: IntrospectionAnswer, options: ResolvedOAuthOptions): TokenVerdict {
  const invalid = (description: string) => ({ refused: 'invalid_token' as const, description });
  if (answer.active !== true) return invalid('The access token is not active: the authorization server says it expired, was revoked or is unknown. Get a new one.');
  if (answer.iss !== undefined && answer.iss !== options.issuer) return invalid(otherIssuer(answer.iss, options));
  const audience = typeof answer.aud === 'string' ? [answer.aud] : Array.isArray(answer.aud) ? answer.aud : [];
  if (!audience.includes(options.resourceId)) return invalid(otherAudience(options));
  const now = Date.now() / 1000;
  if (typeof answer.exp === 'number' && answer.exp + options.clockToleranceSeconds <= now) return invalid(EXPIRED);
  if (typeof answer.nbf === 'number' && answer.nbf - options.clockToleranceSeconds > now) return invalid(NOT_YET_VALID);
  const clientId = stringClaim(answer.client_id);
  const subject = stringClaim(answer.sub) ?? clientId;
  if (subject === undefined) return invalid('The authorization server names no subject (`sub` or `client_id`) for the access token, so its sessions cannot be kept apart.');
  return { principal: { subject, scopes: grantedScopes(answer), clientId } };
}
