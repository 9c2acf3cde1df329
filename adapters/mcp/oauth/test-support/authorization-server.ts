import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/** A real OAuth 2.1 authorization server (`oidc-provider`) on loopback, issuing JWT access tokens for resource indicators. */
export interface LocalAuthorizationServer {
  readonly issuer: string;
  /** An access token for the client, from the client-credentials grant (RFC 6749 §4.4) with a resource indicator (RFC 8707). */
  token(client: string, request: { readonly resource: string; readonly scope: string }): Promise<string>;
  close(): Promise<void>;
}

/**
 * The clients it knows; each one's secret is its name twice. `brief` gets tokens that live
 * three seconds; `introspector` is the MCP server's own, for token introspection; `reader` may
 * be granted `toolbelt:read` only (asking for more is refused with `invalid_scope`).
 */
export const CLIENTS = ['alice', 'bob', 'brief', 'introspector', 'reader'] as const;
export const ALL_SCOPES = 'toolbelt:read toolbelt:write toolbelt:shell';

/**
 * Starts the server on a free loopback port. Every resource indicator is a resource server
 * taking all three scopes, with JWT access tokens, or opaque ones when it ends in `/opaque`.
 */
export async function startAuthorizationServer(): Promise<LocalAuthorizationServer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const provider = new Provider(issuer, {
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'ES256', use: 'sig' }] },
    clients: CLIENTS.map((name) => ({
      client_id: name,
      client_secret: `${name}${name}`,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      scope: name === 'reader' ? 'toolbelt:read' : ALL_SCOPES,
      id_token_signed_response_alg: 'ES256',
    })),
    scopes: ['openid', ...ALL_SCOPES.split(' ')],
    ttl: { ClientCredentials: (_context: unknown, _token: unknown, client: { clientId: string }) => (client.clientId === 'brief' ? 3 : 300) },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        getResourceServerInfo: (_context: unknown, resourceIndicator: string) => ({
          scope: ALL_SCOPES,
          audience: resourceIndicator,
          accessTokenFormat: resourceIndicator.endsWith('/opaque') ? 'opaque' : 'jwt',
          jwt: { sign: { alg: 'ES256' } },
        }),
      },
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    async token(client, { resource, scope }) {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${client}:${client}${client}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!response.ok || body.access_token === undefined) throw new Error(`The authorization server refused a token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
