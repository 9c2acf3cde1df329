import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import type { ResolvedOAuthOptions } from './options.js';

/** Who a valid access token speaks for, and what it allows. */
export interface OAuthPrincipal {
  /** The token's `sub`: the user (or, for a client-credentials token, the client). Sessions are kept per subject. */
  readonly subject: string;
  /** The scopes granted: the `scope` claim (RFC 9068), or `scp` as some servers send it. */
  readonly scopes: ReadonlySet<string>;
  /** The client the token was issued to (`client_id`, else `azp`), when the token says. */
  readonly clientId: string | undefined;
}

/** A token's verdict: who it speaks for, or why it is refused (`unavailable`: the keys could not be fetched, try again). */
export type TokenVerdict =
  | { readonly principal: OAuthPrincipal }
  | { readonly refused: 'invalid_token' | 'unavailable'; readonly description: string };

/** How long a key set is trusted before it is fetched again, and how long a fetch may take. */
const KEYS_MAX_AGE_MS = 10 * 60 * 1000;
const FETCH_TIMEOUT_MS = 5000;

/**
 * Verifies JWT access tokens with `jose`: the signature against the issuer's JWKS (fetched
 * once, kept for 10 minutes, fetched again when a token names a key it does not hold), the
 * issuer, the audience (this resource, RFC 8707), `exp` and `nbf` within the clock tolerance,
 * and a subject. The JWKS address is discovered from the issuer's metadata unless given.
 */
export function createTokenVerifier(options: ResolvedOAuthOptions): (token: string) => Promise<TokenVerdict> {
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const keySet = () => {
    if (keys === undefined) {
      keys = (options.jwksUri === undefined ? discoverJwksUri(options.issuer) : Promise.resolve(options.jwksUri)).then((url) =>
        createRemoteJWKSet(url, { timeoutDuration: FETCH_TIMEOUT_MS, cacheMaxAge: KEYS_MAX_AGE_MS }),
      );
      // A failed discovery is tried again at the next token, not remembered.
      keys.catch(() => (keys = undefined));
    }
    return keys;
  };
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await keySet(), {
        issuer: options.issuer,
        audience: options.resourceId,
        clockTolerance: options.clockToleranceSeconds,
        algorithms: [...options.algorithms],
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (error) {
      return refusal(error, options);
    }
    return { principal: { subject: payload.sub!, scopes: grantedScopes(payload), clientId: stringClaim(payload.client_id) ?? stringClaim(payload.azp) } };
  };
}

function refusal(error: unknown, options: ResolvedOAuthOptions): TokenVerdict {
  const invalid = (description: string) => ({ refused: 'invalid_token' as const, description });
  if (error instanceof errors.JWTExpired) return invalid('The access token has expired; get a new one from the authorization server.');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return invalid(`The access token is not for this server: its audience must include \`${options.resourceId}\`. Request the token with resource=${options.resourceId}.`);
    if (error.claim === 'iss') return invalid(`The access token was issued by \`${String(error.payload.iss)}\`, not by \`${options.issuer}\`, the authorization server this server trusts.`);
    if (error.claim === 'nbf') return invalid('The access token is not valid yet (its `nbf` is in the future).');
    return invalid(`The access token's \`${error.claim}\` claim is ${error.reason === 'missing' ? 'missing' : 'not accepted'}.`);
  }
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JOSEAlgNotAllowed) {
    return invalid(`The access token's signature cannot be verified with the keys of \`${options.issuer}\`.`);
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid || error instanceof errors.JOSENotSupported) {
    return invalid('The access token is not a signed JWT; this server accepts only JWT access tokens (opaque tokens are not supported).');
  }
  const reason = error instanceof Error ? error.message : String(error);
  return { refused: 'unavailable', description: `The authorization server's keys could not be fetched (${reason}); try again shortly.` };
}

/** The `jwks_uri` from the issuer's metadata: RFC 8414's address first, then OpenID Connect discovery's. */
async function discoverJwksUri(issuer: string): Promise<URL> {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const candidates = [new URL(`/.well-known/oauth-authorization-server${path}`, url.origin), new URL(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`)];
  const failures: string[] = [];
  for (const candidate of candidates) {
    try {
      const response = await fetch(candidate, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (!response.ok) {
        failures.push(`${candidate.href}: HTTP ${response.status}`);
        continue;
      }
      const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
      // RFC 8414 §3.3: metadata naming another issuer must not be used.
      if (metadata.issuer !== issuer) throw new Error(`${candidate.href} names the issuer \`${String(metadata.issuer)}\`, not \`${issuer}\``);
      if (typeof metadata.jwks_uri !== 'string' || !URL.canParse(metadata.jwks_uri)) throw new Error(`${candidate.href} has no jwks_uri; set the \`oauth.jwksUri\` option`);
      return new URL(metadata.jwks_uri);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith(candidate.href)) throw error;
      failures.push(`${candidate.href}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(`no metadata for the issuer ${issuer} (${failures.join('; ')})`);
}

function grantedScopes(payload: JWTPayload): ReadonlySet<string> {
  const claim = payload.scope ?? payload.scp;
  const list = typeof claim === 'string' ? claim.split(' ') : Array.isArray(claim) ? claim.filter((item): item is string => typeof item === 'string') : [];
  return new Set(list.filter((scope) => scope !== ''));
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
