/**
 * A TCP proxy on a free loopback port in front of a real server, that can go silent: it keeps
 * every connection open but stops reading and forwarding, in both directions, like a host
 * whose network drops packets. The client's kernel still sees the connection; nothing it
 * sends is answered, and a connection it ends is never ended back.
 *
 * @example
 * const proxy = await startSilentProxy(postgres.port);
 * const store = createPostgresSessionStore({ connectionString: `postgres://postgres@127.0.0.1:${proxy.port}/postgres` });
 * proxy.silence();
 */
import { createConnection, createServer, type Socket } from 'node:net';

export interface SilentProxy {
  readonly port: number;
  /** From now on, nothing passes and nothing is ended: existing and new connections hang. */
  silence(): void;
  /** Destroys every connection and stops listening. */
  close(): Promise<void>;
}

export async function startSilentProxy(targetPort: number): Promise<SilentProxy> {
  const sockets = new Set<Socket>();
  let silent = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  const server = createServer({ allowHalfOpen: true }, (client) => {
    track(client);
    if (silent) {
      client.pause();
      return;
    }
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort, allowHalfOpen: true });
    track(upstream);
    const forward = (from: Socket, to: Socket) => {
      from.on('data', (chunk) => {
        if (!silent) to.write(chunk);
      });
      from.on('end', () => {
        if (!silent) to.end();
      });
    };
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    port: address.port,
    silence: () => {
      silent = true;
      for (const socket of sockets) socket.pause();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
