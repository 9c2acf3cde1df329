import { z } from 'zod';
import { defineTool, ToolError, type ToolCollection } from '../../../src/index.js';

/** Test tools that record every run, so a test can tell a call ran once, twice or never. */
export function recordingCollection() {
  const runs: string[] = [];
  const echo = defineTool({
    name: 'echo',
    description: 'Repeats the text.',
    kind: 'read',
    input: z.object({ text: z.string().describe('What to repeat') }),
    execute: ({ text }) => {
      runs.push(`echo ${text}`);
      return { text: `echo: ${text}`, data: { echoed: text } };
    },
  });
  const writeNote = defineTool({
    name: 'write_note',
    description: 'Writes a note.',
    kind: 'edit',
    needsApproval: true,
    input: z.object({ text: z.string().describe('The note') }),
    describeCall: ({ text }) => `Write the note "${text}"`,
    checkPolicy: ({ text }) => (text === 'forbidden' ? 'Notes may not say "forbidden". Write something else.' : undefined),
    execute: ({ text }) => {
      runs.push(`write ${text}`);
      return `wrote ${text}`;
    },
  });
  const boom = defineTool({
    name: 'boom',
    description: 'Always throws.',
    kind: 'other',
    input: z.object({}),
    execute: () => {
      runs.push('boom');
      throw new Error('kaboom');
    },
  });
  const missing = defineTool({
    name: 'find_thing',
    description: 'Fails in an expected way.',
    kind: 'search',
    input: z.object({ name: z.string().describe('What to find') }),
    execute: ({ name }) => {
      throw new ToolError(`No thing named ${name}. List the things first.`);
    },
  });
  const collection: ToolCollection = {
    name: 'recording',
    tools: [echo, writeNote, boom, missing],
    instructions: 'Use echo to repeat things.',
    context: () => 'Context: the notes folder is empty.',
  };
  return { collection, runs };
}
