import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';

/**
 * Answers a Node.js request with a handler of web-standard ones: the request becomes a
 * `Request` (its body streamed, its signal aborted when the connection closes, as a fetch
 * would be) and the `Response` is streamed back, so server-sent events flow as they come.
 */
export async function answerNodeRequest(request: IncomingMessage, response: ServerResponse, handle: (request: Request) => Promise<Response>): Promise<void> {
  const answer = await handle(toWebRequest(request, response));
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  if (answer.body === null) return void response.end();
  // A client that goes away mid-stream ends the pipeline; nothing is left to answer.
  await pipeline(Readable.fromWeb(answer.body as NodeReadableStream), response).catch(() => undefined);
}

/** A Node.js request as a web one; the connection closing aborts it, as a fetch would be. */
function toWebRequest(request: IncomingMessage, response: ServerResponse): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const aborted = new AbortController();
  response.on('close', () => aborted.abort());
  const method = request.method ?? 'GET';
  const url = new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
  return new Request(url, {
    method,
    headers,
    signal: aborted.signal,
    ...(method === 'POST' ? { body: Readable.toWeb(request) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
}
