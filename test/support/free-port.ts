import { createServer } from 'node:net';

/**
 * A free TCP port on 127.0.0.1, for a test that starts a server (Postgres, Redis, next start)
 * which needs its port named up front. The port is free when this resolves; a server that
 * binds it soon after almost always gets it.
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
