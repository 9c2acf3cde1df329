import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake OpenAI server received. */
export interface RecordedRequest {
  readonly path: string;
  readonly body: any;
}

/** Answers one request; the script holds one step per expected request, in order. */
export type ScriptStep = (body: any) => unknown;

/** A local stand-in for the OpenAI API that replies from a script and records what it got. */
export interface ScriptedServer {
  /** For the `openai` client's `baseURL`, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly baseURL: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Starts an HTTP server on 127.0.0.1 that answers `POST /v1/chat/completions` and
 * `POST /v1/responses` with the next step of the script, so the real `openai` client can be
 * tested without a network. A request beyond the script gets a 500 naming the path.
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
    response.end(JSON.stringify(reply ?? { error: { message: `The script has no step ${next} for ${request.url}.`, type: 'server_error' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A Chat Completions reply: text, or tool calls given as `[name, arguments]` (arguments as a string are sent as they are). */
export function chatReply(reply: { text?: string; calls?: ReadonlyArray<readonly [string, unknown]> }): ScriptStep {
  return () => ({
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'scripted',
    choices: [{
      index: 0,
      finish_reason: reply.calls ? 'tool_calls' : 'stop',
      logprobs: null,
      message: {
        role: 'assistant',
        content: reply.text ?? null,
        refusal: null,
        ...(reply.calls
          ? { tool_calls: reply.calls.map(([name, args], index) => ({ id: `call_${index + 1}`, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } })) }
          : {}),
      },
    }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

/** A Responses API reply: text, or function calls given as `[name, arguments]`. */
export function responsesReply(reply: { text?: string; calls?: ReadonlyArray<readonly [string, unknown]> }): ScriptStep {
  return () => ({
    id: 'resp_test',
    object: 'response',
    created_at: 1_700_000_000,
    model: 'scripted',
    status: 'completed',
    output: [
      ...(reply.text === undefined
        ? []
        : [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] }]),
      ...(reply.calls ?? []).map(([name, args], index) => ({
        type: 'function_call', id: `fc_${index + 1}`, call_id: `call_${index + 1}`, name, status: 'completed',
        arguments: typeof args === 'string' ? args : JSON.stringify(args),
      })),
    ],
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
  });
}
