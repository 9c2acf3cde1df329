import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, type Session, type ToolCollection } from '../../../src/index.js';

/**
 * A small real collection for the adapter's tests: notes kept as files in a temp folder,
 * one tool that needs approval, one with a policy, one that throws, and a context.
 */
export async function createNoteCollection(): Promise<{ collection: ToolCollection; dir: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'toolbelt-ai-sdk-'));
  const written = (session: Session) => session.state<string[]>('notes', () => []);
  const name = z.string().regex(/^[a-z-]+$/).describe('The note name, lowercase letters and dashes');

  const readNote = defineTool({
    name: 'read_note',
    description: 'Reads a note.',
    kind: 'read',
    input: z.object({ name }),
    execute: async (input) => {
      const text = await readFile(path.join(dir, `${input.name}.txt`), 'utf8');
      return { text, data: { name: input.name, length: text.length } };
    },
  });
  const writeNote = defineTool({
    name: 'write_note',
    description: 'Writes a note.',
    kind: 'edit',
    input: z.object({ name, content: z.string().describe('The text of the note') }),
    needsApproval: true,
    describeCall: (input) => `Write note ${input.name}`,
    checkPolicy: (input) => (input.name.startsWith('secret') ? `Notes named ${input.name} are off limits; pick another name.` : undefined),
    execute: async (input, { session }) => {
      await writeFile(path.join(dir, `${input.name}.txt`), input.content);
      written(session).push(input.name);
      return { text: `Wrote ${input.name}.`, data: { name: input.name } };
    },
  });
  const broken = defineTool({
    name: 'broken',
    description: 'Always fails.',
    kind: 'other',
    input: z.object({}),
    execute: () => {
      throw new Error('disk on fire');
    },
  });
  const collection: ToolCollection = {
    name: 'notes',
    tools: [readNote, writeNote, broken],
    instructions: 'Keep notes short.',
    context: (session) => {
      const names = written(session);
      return names.length === 0 ? undefined : `Notes written so far: ${names.join(', ')}.`;
    },
  };
  return { collection, dir };
}
