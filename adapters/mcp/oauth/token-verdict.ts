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

/** A token's verdict: who it speaks for, or why it is refused (`unavailable`: the authorization server could not be reached, try again). */
export type TokenVerdict =
  | { readonly principal: OAuthPrincipal }
  | { readonly refused: 'invalid_token' | 'unavailable'; readonly description: string };

/** What the model and the client read about a token refused for its time, audience or issuer. */
export const NOT_A_JWT = 'The access token is not a signed JWT, and this server accepts only JWT access tokens (opaque tokens need the `oauth.introspection` option).';
export const EXPIRED = 'The access token has expired; get a new one from the authorization server.';
export const NOT_YET_VALID = 'The access token is not valid yet (its `nbf` is in the future).';
export const otherAudience = (options: ResolvedOAuthOptions) =>
  `The access token is not for this server: its audience must include \`${options.resourceId}\`. Request the token with resource=${options.resourceId}.`;
export const otherIssuer = (issuer: unknown, options: ResolvedOAuthOptions) =>
  `The access token was issued by \`${String(issuer)}\`, not by \`${options.issuer}\`, the authorization server this server trusts.`;

/** The scopes a token (or an introspection answer) grants: `scope` as a space-separated string, or `scp` as a list or a string. */
export function grantedScopes(payload: { readonly [claim: string]: unknown }): ReadonlySet<string> {
  const claim = payload['scope'] ?? payload['scp'];
  const list = typeof claim === 'string' ? claim.split(' ') : Array.isArray(claim) ? claim.filter((item): item is string => typeof item === 'string') : [];
  return new Set(list.filter((scope) => scope !== ''));
}

/** A claim that is a non-empty string, else `undefined`. */
export function stringClaim(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
