import { describe, expect, it } from 'vitest';
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { defineTool, type ToolCollection } from '../../src/index.js';
import { toLangChain } from './index.js';

/** A tool with a number field and an alias table, recording what it ran with. */
function repeatCollection() {
  const runs: unknown[] = [];
  const repeat = defineTool({
    name: 'repeat',
    description: 'Repeats the text.',
    kind: 'read',
    input: z.object({ text: z.string().describe('What to repeat'), times: z.number().int().optional().describe('How often; default 1') }),
    aliases: { message: 'text' },
    execute: ({ text, times = 1 }) => {
      runs.push({ text, times });
      return { text: text.repeat(times), data: { times } };
    },
  });
  const collection: ToolCollection = { name: 'repeat', tools: [repeat] };
  return { collection, runs };
}

/** What a ToolNode answers one tool call with. */
async function throughToolNode(args: unknown) {
  const { collection, runs } = repeatCollection();
  const node = new ToolNode(toLangChain([collection]).tools);
  const output = (await node.invoke({ messages: [new AIMessage({ content: '', tool_calls: [{ name: 'repeat', args: args as Record<string, unknown>, id: 'c1', type: 'tool_call' }] })] })) as {
    messages: ToolMessage[];
  };
  return { message: output.messages[0]!, runs };
}

const REFUSED_EXTRA =
  'You sent `extra`, which is not a field of repeat. Nothing was run. repeat takes `text`, `times` (optional). Call repeat again with those fields.';

describe("the model's arguments reach the core as sent (issue 26)", () => {
  it('repairs a number sent as text in a ToolNode, answering with a ToolMessage that keeps the artifact', async () => {
    const { message, runs } = await throughToolNode({ text: 'ab', times: '2' });

    expect(runs).toEqual([{ text: 'ab', times: 2 }]);
    expect(ToolMessage.isInstance(message)).toBe(true);
    expect(message).toMatchObject({ content: 'abab', artifact: { times: 2 }, tool_call_id: 'c1', name: 'repeat', status: 'success' });
  });

  it("maps a name from the tool's alias table in a ToolNode and says so", async () => {
    const { message } = await throughToolNode({ message: 'hi' });

    expect(message).toMatchObject({ content: 'hi\n\n(Read `message` as `text`: send the fields by these names next time.)', artifact: { times: 1 }, status: 'success' });
  });

  it('refuses a key the tool does not take in a ToolNode, before anything runs', async () => {
    const { message, runs } = await throughToolNode({ text: 'hi', extra: 1 });

    expect(runs).toEqual([]);
    expect(message).toMatchObject({ content: REFUSED_EXTRA, status: 'error', tool_call_id: 'c1' });
  });

  it("never lets LangChain's parse drop a key when the tool is invoked with plain arguments", async () => {
    const { collection, runs } = repeatCollection();
    const [tool] = toLangChain([collection]).tools;

    // The Zod schema would take `{ text: 'hi' }` once `extra` is stripped: the core still sees `extra`.
    await expect(tool!.invoke({ text: 'hi', extra: 1 } as never)).resolves.toBe(REFUSED_EXTRA);
    await expect(tool!.invoke({ text: 'hi', explanation: 'Say hi.' } as never)).resolves.toBe('hi');
    await expect(tool!.invoke({ text: 'hi', times: '3' } as never)).resolves.toBe('hihihi');
    expect(runs).toEqual([
      { text: 'hi', times: 1 },
      { text: 'hi', times: 3 },
    ]);
  });

  it('hands arguments encoded twice to the core, which reads them once more', async () => {
    const { message } = await throughToolNode(JSON.stringify({ text: 'x', times: 2 }));

    expect(message).toMatchObject({ content: 'xx', status: 'success' });
  });

  it('keeps the schema the model sees: the Zod schema as it is', () => {
    const { collection } = repeatCollection();
    const [tool] = toLangChain([collection]).tools;

    expect(tool!.schema).toBe(collection.tools[0]!.input);
  });
});
