import { startScriptedHttpServer, type ScriptedServer, type ScriptStep } from '../../../test/support/scripted-http-server.js';

export type { RecordedRequest, ScriptedServer, ScriptStep } from '../../../test/support/scripted-http-server.js';

/**
 * Starts an HTTP server on 127.0.0.1 that answers `POST /v1/messages` with the next step of
 * the script, so the real `@anthropic-ai/sdk` client can be tested without a network. A
 * request beyond the script gets a 500 naming the path. `baseURL` is `http://127.0.0.1:PORT`.
 */
export async function startScriptedServer(script: readonly ScriptStep[]): Promise<ScriptedServer> {
  return startScriptedHttpServer(script, {
    noStep: (step, path) => ({ type: 'error', error: { type: 'api_error', message: `The script has no step ${step} for ${path}.` } }),
  });
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
