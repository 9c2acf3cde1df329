import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { FETCH_TIMEOUT_MS, issuerMetadataLoader, metadataEndpoint, type IssuerMetadata } from './issuer-metadata.js';
import { createTokenIntrospector } from './introspect-token.js';
import { EXPIRED, grantedScopes, NOT_A_JWT, NOT_YET_VALID, otherAudience, otherIssuer, stringClaim, type TokenVerdict } from './token-verdict.js';
import type { ResolvedOAuthOptions } from './options.js';

/** How long a key set is trusted before it is fetched again. */
const KEYS_MAX_AGE_MS = 10 * 60 * 1000;

/**
 * Verifies JWT access tokens with `jose`: the signature against the issuer's JWKS (fetched
 * once, kept for 10 minutes, fetched again when a token names a key it does not hold), the
 * issuer, the audience (this resource, RFC 8707), `exp` and `nbf` within the clock tolerance,
 * and a subject. The JWKS address is discovered from the issuer's metadata unless given.
 */
export function createTokenVerifier(options: ResolvedOAuthOptions, issuerMetadata: () => Promise<IssuerMetadata> = issuerMetadataLoader(options.issuer)): (token: string) => Promise<TokenVerdict> {
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const keySet = () => {
    if (keys === undefined) {
      const jwksUri = options.jwksUri === undefined ? issuerMetadata().then((metadata) => metadataEndpoint(metadata, 'jwks_uri', 'oauth.jwksUri')) : Promise.resolve(options.jwksUri);
      keys = jwksUri.then((url) =>
        createRemoteJWKSet(url, { timeoutDuration: FETCH_TIMEOUT_MS, cacheMaxAge: KEYS_MAX_AGE_MS }),
      );
      // A failed discovery is tried again at the next token, not remembered.
      keys.catch(() => (keys = undefined));
    }
    return keys;
  };
  const introspect = createTokenIntrospector(options, issuerMetadata);
  return async (token) => {
    // A JWS has three parts, a JWE five; anything else is an opaque token, only introspection can tell.
    const parts = token.split('.').length;
    if (parts !== 3 && parts !== 5) {
      return introspect === undefined ? { refused: 'invalid_token', description: NOT_A_JWT } : introspect(token);
    }
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
  if (error instanceof errors.JWTExpired) return invalid(EXPIRED);
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return invalid(otherAudience(options));
    if (error.claim === 'iss') return invalid(otherIssuer(error.payload.iss, options));
    if (error.claim === 'nbf') return invalid(NOT_YET_VALID);
    return invalid(`The access token's \`${error.claim}\` claim is ${error.reason === 'missing' ? 'missing' : 'not accepted'}.`);
  }
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JOSEAlgNotAllowed) {
    return invalid(`The access token's signature cannot be verified with the keys of \`${options.issuer}\`.`);
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid || error instanceof errors.JOSENotSupported) {
    return invalid(NOT_A_JWT);
  }
  const reason = error instanceof Error ? error.message : String(error);
  return { refused: 'unavailable', description: `The authorization server's keys could not be fetched (${reason}); try again shortly.` };
}
