import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolCollection } from '../../src/index.js';
import { createMcpHttpHandler, type McpHttpHandler, type McpHttpOptions } from './http.js';
import { isLoopbackHost } from './http-security.js';
import { metadataPathsOf } from './oauth/index.js';

/** A running {@link listenMcpHttp} server. */
export interface McpHttpServer {
  /** Where clients connect, e.g. `http://127.0.0.1:8765/mcp`. */
  readonly url: URL;
  readonly handler: McpHttpHandler;
  /** Stops listening, closes every session and ends their jobs. */
  close(): Promise<void>;
}

/** Options of {@link listenMcpHttp}. */
export interface McpListenOptions extends McpHttpOptions {
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** `0` picks a free port. @default 0 */
  readonly port?: number;
  /** @default '/mcp' */
  readonly path?: string;
}

/**
 * Listens for MCP clients over Streamable HTTP on its own Node.js server, at `path`. On
 * loopback by default; any other address needs a `token` or `oauth`, since whoever reaches the port
 * could otherwise run the tools.
 *
 * @example
 * const running = await listenMcpHttp([createFileTools({ workspace })], { port: 8765, token });
 * console.error(`MCP at ${running.url}`);
 */
export async function listenMcpHttp(collections: readonly ToolCollection[], options: McpListenOptions = {}): Promise<McpHttpServer> {
  const { host = '127.0.0.1', port = 0, path = '/mcp', ...handlerOptions } = options;
  if (!isLoopbackHost(host) && handlerOptions.token === undefined && handlerOptions.oauth === undefined) {
    throw new TypeError(
      `Refusing to listen on \`${host}\` without a token: anyone who can reach that address could run the tools. Set a token (\`--token-file FILE\` or TOOLBELT_MCP_TOKEN) or OAuth (\`--oauth-issuer URL --oauth-resource URL\`), or listen on 127.0.0.1.`,
    );
  }
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new TypeError(`Expected the \`port\` option to be an integer from 0 to 65535, got \`${String(port)}\`.`);
  const handler = createMcpHttpHandler(collections, handlerOptions);
  // With OAuth, the metadata document is served beside the endpoint, at /.well-known/….
  const paths = new Set([path, ...(handlerOptions.oauth === undefined ? [] : metadataPathsOf(handlerOptions.oauth))]);
  const server = createServer((request, response) => {
    if (!paths.has(new URL(request.url ?? '/', 'http://localhost').pathname)) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end(`Not found; the MCP endpoint is ${path}.\n`);
      return;
    }
    handler.handleNodeRequest(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`Internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => (server.off('error', reject), resolve()));
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: new URL(`http://${shown}:${address.port}${path}`),
    handler,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
