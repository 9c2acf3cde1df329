import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** Host names that always mean this machine. */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** True for an address or name that only this machine can reach (`127.0.0.1`, `::1`, `localhost`). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.toLowerCase().replace(/\.$/, '');
  if (LOOPBACK_NAMES.has(bare)) return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** The host part of a `Host` header value or an origin's authority, without the port. */
function hostOf(authority: string): string {
  if (authority.startsWith('[')) return authority.slice(0, authority.indexOf(']') + 1);
  return authority.replace(/:\d+$/, '');
}

/**
 * Compares a request's `Authorization` header with the token in constant time (both sides
 * are hashed first, so neither the length nor a common prefix shows in the timing).
 */
export function carriesToken(authorization: string | null, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const given = createHash('sha256').update(match?.[1] ?? '').digest();
  const expected = createHash('sha256').update(token).digest();
  return timingSafeEqual(given, expected) && match !== null;
}

/** What the request checks allow besides this machine. */
export interface RequestPolicy {
  /** `Host` header values (without the port) accepted; `undefined` accepts any host. */
  readonly allowedHosts: readonly string[] | undefined;
  /** Origins (`https://app.example.com`) accepted besides this machine's own. */
  readonly allowedOrigins: readonly string[];
}

/**
 * Why a request must be refused before it reaches the MCP session, or `undefined`. The
 * `Host` check defeats DNS rebinding (a web page whose name was re-pointed at 127.0.0.1
 * still sends its own name); the `Origin` check stops any web page but the allowed ones
 * from calling the tools from a browser.
 */
export function refusedOrigin(headers: Headers, policy: RequestPolicy): string | undefined {
  const host = headers.get('host');
  if (policy.allowedHosts !== undefined) {
    const name = host === null ? undefined : hostOf(host).toLowerCase();
    if (name === undefined || !(isLoopbackHost(name) || policy.allowedHosts.includes(name))) {
      return `The Host header \`${host ?? '(none)'}\` is not one this server answers to. Connect through http://127.0.0.1 or a host the server allows.`;
    }
  }
  const origin = headers.get('origin');
  if (origin === null) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {
    url = undefined;
  }
  const allowed = url !== undefined && (isLoopbackHost(url.hostname) || policy.allowedOrigins.includes(url.origin));
  return allowed ? undefined : `Requests from the web origin \`${origin}\` are refused. Start the server with that origin allowed if it is yours.`;
}
