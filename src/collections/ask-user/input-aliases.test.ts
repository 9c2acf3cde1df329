import { describe, expect, it } from 'vitest';
import { runTool } from '../../run-tool.js';
import { createSession } from '../../session.js';
import { createAskUserTools } from './index.js';
import type { UserQuestion } from './questions.js';

function askUser() {
  const asked: (readonly UserQuestion[])[] = [];
  const [tool] = createAskUserTools({
    ask: async (questions) => {
      asked.push(questions);
      return questions.map((question) => ({ selected: [question.options[0]!.label] }));
    },
  }).tools;
  return { asked, call: (input: unknown) => runTool(tool, input, { session: createSession() }) };
}

const options = [{ label: 'OAuth' }, { label: 'Password' }];

describe('ask_user_question as other harnesses call it', () => {
  it('takes Claude Code’s AskUserQuestion shape, `multiSelect` included', async () => {
    const { asked, call } = askUser();
    const result = await call({ questions: [{ question: 'Which login?', header: 'Login', options, multiSelect: true }] });
    expect(result.isError).toBe(false);
    expect(asked[0]![0]!.multi_select).toBe(true);
  });

  it('reads one question sent flat as the list of one it means', async () => {
    const { asked, call } = askUser();
    const result = await call({ question: 'Which login?', header: 'Login', options });
    expect(result.isError).toBe(false);
    expect(asked[0]).toEqual([{ question: 'Which login?', header: 'Login', options, multi_select: false }]);
  });

  it('refuses options sent as plain strings and pre-filled `answers`, saying what to send, asking no one', async () => {
    const { asked, call } = askUser();
    expect((await call({ questions: [{ question: 'Which login?', header: 'Login', options: ['OAuth', 'Password'] }] })).text).toContain(
      '`questions.0.options.0`: send each option as an object: { "label": "OAuth" }',
    );
    expect((await call({ questions: [{ question: 'Which login?', header: 'Login', options }], answers: { 'Which login?': 'OAuth' } })).text).toMatch(
      /^The user gives the answers: send the call without `answers`/,
    );
    expect(asked).toEqual([]);
  });
});
