import { describe, expect, it } from 'vitest';
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { OFF_CONTRACT_CALLS, REFUSED_EXTRA, repeatCollection } from '../../test/support/off-contract-calls.js';
import { toLangChain } from './index.js';

/** What a ToolNode answers one tool call with. */
async function throughToolNode(args: unknown) {
  const { collection, runs } = repeatCollection();
  const node = new ToolNode(toLangChain([collection]).tools);
  const output = (await node.invoke({ messages: [new AIMessage({ content: '', tool_calls: [{ name: 'repeat', args: args as Record<string, unknown>, id: 'c1', type: 'tool_call' }] })] })) as {
    messages: ToolMessage[];
  };
  return { message: output.messages[0]!, runs };
}

describe("the model's arguments reach the core as sent (issue 26)", () => {
  it('repairs a number sent as text in a ToolNode, answering with a ToolMessage that keeps the artifact', async () => {
    const call = OFF_CONTRACT_CALLS['text-number'];
    const { message, runs } = await throughToolNode(call.input);

    expect(runs).toEqual([call.ran]);
    expect(ToolMessage.isInstance(message)).toBe(true);
    expect(message).toMatchObject({ content: call.text, artifact: { times: 2 }, tool_call_id: 'c1', name: 'repeat', status: 'success' });
  });

  it("maps a name from the tool's alias table in a ToolNode and says so", async () => {
    const call = OFF_CONTRACT_CALLS.alias;
    const { message, runs } = await throughToolNode(call.input);

    expect(runs).toEqual([call.ran]);
    expect(message).toMatchObject({ content: call.text, artifact: { times: 1 }, status: 'success' });
  });

  it('refuses a key the tool does not take in a ToolNode, before anything runs', async () => {
    const call = OFF_CONTRACT_CALLS['unknown-key'];
    const { message, runs } = await throughToolNode(call.input);

    expect(runs).toEqual([]);
    expect(message).toMatchObject({ content: call.text, status: 'error', tool_call_id: 'c1' });
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
    const call = OFF_CONTRACT_CALLS.twice;
    const { message, runs } = await throughToolNode(call.input);

    expect(runs).toEqual([call.ran]);
    expect(message).toMatchObject({ content: call.text, status: 'success' });
  });

  it('keeps the schema the model sees: the Zod schema as it is', () => {
    const { collection } = repeatCollection();
    const [tool] = toLangChain([collection]).tools;

    expect(tool!.schema).toBe(collection.tools[0]!.input);
  });
});
