/**
 * The model the example uses when no API key is set, so it runs offline: it plans two tasks,
 * reads the README, then rewrites it (which asks first) while closing the tasks, and reports
 * what happened.
 */
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';

export const README = '# Demo\n\nA folder for trying agent-toolbelt with createAgent.\n\n## Usage\n\nRun the example.\n';

export function scriptedModel() {
  return fakeModel()
    .respondWithTools([
      { name: 'task_add', args: { tasks: [{ subject: 'Read the README' }, { subject: 'Add a usage section', blocked_by: ['@1'] }] }, id: 'call-plan' },
    ])
    .respondWithTools([
      { name: 'task_update', args: { updates: [{ id: '1', status: 'in_progress' }] }, id: 'call-start' },
      { name: 'read_file', args: { path: 'README.md' }, id: 'call-read' },
    ])
    .respondWithTools([
      { name: 'task_update', args: { updates: [{ id: '1', status: 'completed' }, { id: '2', status: 'in_progress' }] }, id: 'call-next' },
      { name: 'write_file', args: { path: 'README.md', content: README }, id: 'call-write' },
    ])
    .respond((messages) => {
      const write = messages.find((message) => ToolMessage.isInstance(message) && message.tool_call_id === 'call-write') as ToolMessage | undefined;
      return new AIMessage(write?.status === 'success' ? 'The README has a usage section now.' : `I left the README as it was: ${String(write?.content)}`);
    });
}
