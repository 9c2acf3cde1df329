/**
 * The model the example uses when no API key is set, so it runs offline. It reads the
 * README, then in one step creates SUMMARY.md (no approval needed) and rewrites the README
 * to link to it (asks first), then reports what happened to the README.
 */
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';

export const SUMMARY = '# Summary\n\nA demo folder for agent-toolbelt.\n';
export const README = '# Demo\n\nA folder for trying agent-toolbelt with LangGraph. See [the summary](SUMMARY.md).\n';

export function scriptedModel() {
  return fakeModel()
    .respondWithTools([{ name: 'read_file', args: { path: 'README.md' }, id: 'call-read' }])
    .respondWithTools([
      { name: 'create_file', args: { path: 'SUMMARY.md', content: SUMMARY }, id: 'call-create' },
      { name: 'write_file', args: { path: 'README.md', content: README }, id: 'call-write' },
    ])
    .respond((messages) => {
      const write = messages.find((message) => ToolMessage.isInstance(message) && message.tool_call_id === 'call-write') as ToolMessage | undefined;
      return new AIMessage(
        write?.status === 'success'
          ? 'I wrote SUMMARY.md and linked it from README.md.'
          : `I wrote SUMMARY.md but left README.md as it was: ${String(write?.content)}`,
      );
    });
}
