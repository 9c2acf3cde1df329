import { startScriptedHttpServer, type ScriptedServer, type ScriptStep } from '../../../test/support/scripted-http-server.js';

export type { RecordedRequest, ScriptedServer, ScriptStep } from '../../../test/support/scripted-http-server.js';

/**
 * Starts an HTTP server on 127.0.0.1 that answers `POST /v1/chat/completions` and
 * `POST /v1/responses` with the next step of the script, so the real `openai` client can be
 * tested without a network. A request beyond the script gets a 500 naming the path.
 * `baseURL` is `http://127.0.0.1:PORT/v1`.
 */
export async function startScriptedServer(script: readonly ScriptStep[]): Promise<ScriptedServer> {
  return startScriptedHttpServer(script, {
    basePath: '/v1',
    noStep: (step, path) => ({ error: { message: `The script has no step ${step} for ${path}.`, type: 'server_error' } }),
  });
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
  return responsesOutputReply([
    ...(reply.text === undefined
      ? []
      : [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] }]),
    ...(reply.calls ?? []).map(([name, args], index) => ({
      type: 'function_call', id: `fc_${index + 1}`, call_id: `call_${index + 1}`, name, status: 'completed',
      arguments: typeof args === 'string' ? args : JSON.stringify(args),
    })),
  ]);
}

/** A completed Responses API reply whose `output` is the given items as they are (for item types `responsesReply` does not build). */
export function responsesOutputReply(output: readonly unknown[]): ScriptStep {
  return () => ({
    id: 'resp_test',
    object: 'response',
    created_at: 1_700_000_000,
    model: 'scripted',
    status: 'completed',
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
  });
}
