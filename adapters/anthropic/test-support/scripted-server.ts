import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake Anthropic server received. */
export interface RecordedRequest {
  readonly path: string;
  readonly body: any;
}

/** Answers one request; the script holds one step per expected request, in order. */
export type ScriptStep = (body: any) => unknown;

/** A local stand-in for the Messages API that replies from a script and records what it got. */
export interface ScriptedServer {
  /** For the `@anthropic-ai/sdk` client's `baseURL`, e.g. `http://127.0.0.1:PORT`. */
  readonly baseURL: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Starts an HTTP server on 127.0.0.1 that answers `POST /v1/messages` with the next step of
 * the script, so the real `@anthropic-ai/sdk` client can be tested without a network. A
 * request beyond the script gets a 500 naming the path.
 */
export async function startScriptedServer(script: readonly ScriptStep[]): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  let next = 0;
  const server = createServer(async (request, response) => {
    const body = JSON.parse((await readBody(request)) || '{}');
    requests.push({ path: request.url ?? '', body });
    const step = script[next++];
    const reply = step === undefined ? undefined : step(body);
    response.writeHead(reply === undefined ? 500 : 200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(reply ?? { type: 'error', error: { type: 'api_error', message: `The script has no step ${next} for ${request.url}.` } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A Messages API reply: text, or `tool_use` blocks given as `[name, input]` (ids `toolu_1`, `toolu_2`, … in order). */
export function messageReply(reply: { text?: string; calls?: ReadonlyArray<readonly [string, unknown]> }): ScriptStep {
  return () => ({
    id: 'msg_test',
    type: 'message',
    role: 'assistant',
    model: 'scripted',
    content: [
      ...(reply.text === undefined ? [] : [{ type: 'text', text: reply.text }]),
      ...(reply.calls ?? []).map(([name, input], index) => ({ type: 'tool_use', id: `toolu_${index + 1}`, name, input })),
    ],
    stop_reason: reply.calls ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  });
}
