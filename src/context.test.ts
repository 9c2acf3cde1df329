import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collectContext, collectInstructions, collectTools } from './context.js';
import { createSession } from './session.js';
import { defineTool, type ToolCollection } from './tool.js';

const tool = (name: string) => defineTool({ name, description: '', kind: 'read', input: z.object({}), execute: () => '' });

describe('collecting from collections', () => {
  it('joins the contexts that have something to say, in order', async () => {
    const collections: ToolCollection[] = [
      { name: 'a', tools: [], context: () => 'Today is Monday.' },
      { name: 'b', tools: [], context: () => '   ' },
      { name: 'c', tools: [] },
      { name: 'd', tools: [], context: async (session) => `Session ${session.id}.` },
    ];
    expect(await collectContext(collections, createSession({ id: 's1' }))).toBe('Today is Monday.\n\nSession s1.');
    expect(await collectContext([{ name: 'b', tools: [], context: () => undefined }], createSession())).toBeUndefined();
  });

  it('joins instructions', () => {
    expect(collectInstructions([{ name: 'a', tools: [], instructions: 'Use A.' }, { name: 'b', tools: [] }, { name: 'c', tools: [], instructions: ' Use C. ' }])).toBe('Use A.\n\nUse C.');
  });

  it('refuses two tools with one name, naming both collections', () => {
    expect(() => collectTools([{ name: 'files', tools: [tool('read_file')] }, { name: 'other', tools: [tool('read_file')] }])).toThrow(
      'Two tools are named `read_file`: one in the `files` collection and one in `other`. Give each collection once.',
    );
    expect([...collectTools([{ name: 'files', tools: [tool('a'), tool('b')] }]).keys()]).toEqual(['a', 'b']);
  });
});
