/** How long a fetch from the authorization server (metadata, keys, introspection) may take. */
export const FETCH_TIMEOUT_MS = 5000;

/** The fields of the issuer's metadata (RFC 8414) this server reads. */
export interface IssuerMetadata {
  readonly jwks_uri?: string;
  readonly introspection_endpoint?: string;
}

/**
 * Fetches the issuer's metadata once: RFC 8414's address first, then OpenID Connect
 * discovery's. A failure is not remembered, so the next token tries again.
 */
export function issuerMetadataLoader(issuer: string): () => Promise<IssuerMetadata> {
  let loading: Promise<IssuerMetadata> | undefined;
  return () => {
    if (loading === undefined) {
      loading = fetchIssuerMetadata(issuer);
      loading.catch(() => (loading = undefined));
    }
    return loading;
  };
}

/** A URL the metadata names, or an error saying which option to set instead. */
export function metadataEndpoint(metadata: IssuerMetadata, field: keyof IssuerMetadata, option: string): URL {
  const value = metadata[field];
  if (typeof value !== 'string' || !URL.canParse(value)) throw new Error(`the issuer's metadata has no ${field}; set the \`${option}\` option`);
  return new URL(value);
}

async function fetchIssuerMetadata(issuer: string): Promise<IssuerMetadata> {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const candidates = [new URL(`/.well-known/oauth-authorization-server${path}`, url.origin), new URL(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`)];
  const failures: string[] = [];
  for (const candidate of candidates) {
    let metadata: { issuer?: unknown } & IssuerMetadata;
    try {
      const response = await fetch(candidate, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (!response.ok) {
        failures.push(`${candidate.href}: HTTP ${response.status}`);
        continue;
      }
      metadata = (await response.json()) as typeof metadata;
    } catch (error) {
      failures.push(`${candidate.href}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    // RFC 8414 §3.3: metadata naming another issuer must not be used.
    if (metadata.issuer !== issuer) throw new Error(`${candidate.href} names the issuer \`${String(metadata.issuer)}\`, not \`${issuer}\``);
    return metadata;
  }
  throw new Error(`no metadata for the issuer ${issuer} (${failures.join('; ')})`);
}
