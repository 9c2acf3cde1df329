import { describe, expect, it } from 'vitest';
import { createSession } from '../../src/index.js';
import { toLangChain } from './index.js';
import { recordingCollection } from './test-support/tools.js';

describe('toLangChain options', () => {
  const { collection } = recordingCollection();

  it('names the option and the value it refuses', () => {
    expect(() => toLangChain([collection], { mode: 'yolo' as never })).toThrow(
      "Expected the `mode` option to be one of 'ask', 'accept-edits', 'plan', 'auto', got `yolo`.",
    );
    expect(() => toLangChain([collection], { onApproval: 'yes' as never })).toThrow(
      'Expected the `onApproval` option to be a function, got `yes` (string).',
    );
    expect(() => toLangChain([collection], { background: 'run_shell' as never })).toThrow(
      'Expected the `background` option to be an array of tool names, got `"run_shell"`.',
    );
    expect(() => toLangChain([collection], { session: {} as never })).toThrow(
      'Expected the `session` option to be a Session from `createSession()`, got `[object Object]` (object).',
    );
    expect(() => toLangChain([collection], { sessionFor: 'x' as never })).toThrow(
      'Expected the `sessionFor` option to be a function of the thread id, got `x` (string).',
    );
    expect(() => toLangChain([collection], { session: createSession(), sessionFor: () => createSession() })).toThrow(
      'Expected either the `session` option or the `sessionFor` option, got both.',
    );
  });

  it('refuses per-tool approval overrides for tools it does not have, or that are not a rule', () => {
    expect(() => toLangChain([collection], { needsApproval: { write_note: 'yes' as never } })).toThrow(
      'Expected `needsApproval.write_note` to be true, false or a function of the input, got `yes` (string).',
    );
    expect(() => toLangChain([collection], { needsApproval: { writenote: true } })).toThrow(
      'Expected `needsApproval` to name tools of the collections, got `writenote`; the tools are echo, write_note, boom, find_thing. A misspelt name would leave that tool\'s default in place.',
    );
  });

  it('refuses two tools with one name', () => {
    expect(() => toLangChain([collection, { ...collection, name: 'again' }])).toThrow(
      'Two tools are named `echo`: one in the `recording` collection and one in `again`. Give each collection once.',
    );
  });

  it('joins the instructions for the system prompt', () => {
    expect(toLangChain([collection, { name: 'more', tools: [], instructions: '  Be brief.  ' }]).instructions).toBe(
      'Use echo to repeat things.\n\nBe brief.',
    );
  });

  it('keeps one session per thread by default, named after the thread', async () => {
    const belt = toLangChain([collection]);
    const first = await belt.sessionFor('a');
    expect(await belt.sessionFor('a')).toBe(first);
    expect(first.id).toBe('a');
    expect(await belt.sessionFor('b')).not.toBe(first);
    expect(await belt.sessionFor()).toBe(await belt.sessionFor(undefined));
  });

  it('uses the given session for every thread, or asks sessionFor', async () => {
    const session = createSession();
    const shared = toLangChain([collection], { session });
    expect(await shared.sessionFor('a')).toBe(session);
    expect(await shared.sessionFor('b')).toBe(session);

    const asked: (string | undefined)[] = [];
    const resolved = toLangChain([collection], {
      sessionFor: async (threadId) => {
        asked.push(threadId);
        return session;
      },
    });
    expect(await resolved.sessionFor('t')).toBe(session);
    expect(asked).toEqual(['t']);

    const broken = toLangChain([collection], { sessionFor: () => ({}) as never });
    await expect(broken.sessionFor('t')).rejects.toThrow('Expected `sessionFor("t")` to return a Session, got `[object Object]`.');
  });
});
