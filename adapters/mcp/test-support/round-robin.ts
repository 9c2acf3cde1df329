import { createServer, request as forward, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

// Test support: a plain round-robin balancer on loopback, with no stickiness: each request goes
// to the next instance in turn, whatever session it belongs to. An instance that refuses the
// connection (it was killed) is skipped, as a balancer's health check would take it out.

/** A running balancer. */
export interface RoundRobin {
  /** Where clients connect: the balancer's own address with the instances' path (`/mcp`). */
  readonly url: URL;
  /** How many requests each instance answered, by its URL. */
  readonly served: Map<string, number>;
  close(): Promise<void>;
}

function readAll(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk)).once('end', () => resolve(Buffer.concat(chunks))).once('error', reject);
  });
}

/** Starts a balancer in front of the instances (their full URLs, all with the same path). */
export async function startRoundRobin(instances: readonly URL[]): Promise<RoundRobin> {
  let next = 0;
  const served = new Map(instances.map((url) => [url.href, 0]));
  const server = createServer(async (incoming, outgoing) => {
    const body = await readAll(incoming);
    const first = next++;
    const attempt = (tries: number): void => {
      const target = instances[(first + tries - 1) % instances.length]!;
      const upstream = forward(
        { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: { ...incoming.headers, host: target.host } },
        (answer) => {
          served.set(target.href, (served.get(target.href) ?? 0) + 1);
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      upstream.once('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNREFUSED' && tries < instances.length) return attempt(tries + 1);
        if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
        outgoing.end(`The balancer reached no instance: ${error.message}\n`);
      });
      outgoing.once('close', () => upstream.destroy());
      upstream.end(body);
    };
    attempt(1);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}${instances[0]!.pathname}`),
    served,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
