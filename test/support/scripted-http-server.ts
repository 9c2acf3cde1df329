import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a scripted server received. */
export interface RecordedRequest {
  readonly path: string;
  readonly body: any;
}

/** Answers one request; the script holds one step per expected request, in order. */
export type ScriptStep = (body: any) => unknown;

/** A local stand-in for a model API that replies from a script and records what it got. */
export interface ScriptedServer {
  /** For the client's `baseURL`: `http://127.0.0.1:PORT` followed by the `basePath` given. */
  readonly baseURL: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/** How a provider's stand-in differs: where its client's base URL points, and how its errors look. */
export interface ScriptedServerShape {
  /** Appended to the origin for `baseURL` (e.g. `/v1` for the `openai` client); none by default. */
  readonly basePath?: string;
  /** The 500 body for a request beyond the script, in the provider's error shape; `step` counts from 1. */
  readonly noStep: (step: number, path: string | undefined) => unknown;
}

/**
 * Starts an HTTP server on 127.0.0.1 (a free port) that answers every request with the next
 * step of the script as JSON, so a provider's real client can be tested without a network.
 * Shared by the adapters' test support: each adds its provider's reply builders and error shape.
 * A request beyond the script gets a 500 whose body `shape.noStep` writes.
 */
export async function startScriptedHttpServer(script: readonly ScriptStep[], shape: ScriptedServerShape): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  let next = 0;
  const server = createServer(async (request, response) => {
    const body = JSON.parse((await readBody(request)) || '{}');
    requests.push({ path: request.url ?? '', body });
    const step = script[next++];
    const reply = step === undefined ? undefined : step(body);
    response.writeHead(reply === undefined ? 500 : 200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(reply ?? shape.noStep(next, request.url)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}${shape.basePath ?? ''}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
