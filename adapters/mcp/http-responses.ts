/** The id of the request a body holds, so an error answering it carries it (null when there is none). */
export function requestId(parsedBody: unknown): string | number | null {
  const id = (parsedBody as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** A JSON-RPC error as an HTTP response, carrying the id of the request it answers when it had one. */
export function errorResponse(status: number, message: string, headers: Record<string, string> = {}, code = -32000, id: string | number | null = null): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** The same response, calling `done` once when its body has been read to the end or cancelled (at once when it has none). */
export function onStreamEnd(response: Response, done: () => void): Response {
  if (response.body === null) {
    done();
    return response;
  }
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    done();
  };
  const reader = response.body.getReader();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await reader.read().catch((error: unknown) => (finish(), Promise.reject(error)));
      if (!next.done) return controller.enqueue(next.value);
      finish();
      controller.close();
    },
    cancel: (reason) => (finish(), reader.cancel(reason)),
  });
  return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers });
}
