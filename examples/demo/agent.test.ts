import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scriptedModel } from '../../adapters/ai-sdk/test-support/scripted-model.js';
import { createDemoAgent } from './agent.js';

let folder: string;

beforeEach(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-demo-agent-'));
  await fs.writeFile(path.join(folder, 'notes.txt'), 'remember the milk\n');
});

afterEach(async () => {
  await fs.rm(folder, { recursive: true, force: true });
});

describe('the demo agent', () => {
  it('keeps every step of earlier requests in the conversation, tool results included', async () => {
    const { model, prompts } = scriptedModel([
      { toolCalls: [{ toolName: 'read_file', input: { path: 'notes.txt' }, id: 'read-1' }] },
      { text: 'It says to remember the milk.' },
      { text: 'You asked about the notes.' },
    ]);
    const agent = createDemoAgent({ folder, model, approve: () => 'deny', print: () => {} });
    try {
      expect(await agent.send('What do the notes say?')).toBe('It says to remember the milk.');
      await agent.send('What did I ask before?');
    } finally {
      await agent.close();
    }
    const third = JSON.stringify(prompts[2]);
    // The first request's tool call and its result are still there, not only its last step.
    expect(third).toContain('"toolCallId":"read-1"');
    expect(third).toContain('remember the milk');
    expect(third).toContain('It says to remember the milk.');
  });
});
