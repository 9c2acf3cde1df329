import { describe, expect, it } from 'vitest';
import { runTool } from '../../run-tool.js';
import { createSession } from '../../session.js';
import type { UserAnswer } from './answers.js';
import { createAskUserTools } from './index.js';
import type { UserQuestion } from './questions.js';

const session = createSession();

const login = {
  question: 'Which login method should the app use?',
  header: 'Login',
  options: [
    { label: 'OAuth (recommended)', description: 'Sign in with Google or GitHub' },
    { label: 'Password' },
  ],
};
const parts = {
  question: 'Which parts should I change?',
  header: 'Scope',
  options: [{ label: 'Backend' }, { label: 'Frontend' }, { label: 'Tests' }],
  multi_select: true,
};
const name = { question: 'What should the service be called?', header: 'Name', options: [{ label: 'auth-api' }, { label: 'login-service' }] };

function withAnswers(answers: readonly UserAnswer[] | (() => Promise<readonly UserAnswer[]>)) {
  const asked: (readonly UserQuestion[])[] = [];
  const collection = createAskUserTools({
    ask: async (questions) => {
      asked.push(questions);
      return typeof answers === 'function' ? answers() : answers;
    },
  });
  return { tool: collection.tools[0], asked, collection };
}

describe('ask_user_question with an ask callback', () => {
  it('hands the questions to the callback and lists every answer, (no answer) and typed ones included', async () => {
    const { tool, asked } = withAnswers([{ selected: ['OAuth (recommended)'] }, { selected: ['Backend', 'Tests', 'Docs too'] }, { selected: [] }]);
    const result = await runTool(tool, { questions: [login, parts, name] }, { session });
    expect(asked).toEqual([
      [
        { ...login, multi_select: false },
        { ...parts, multi_select: true },
        { ...name, multi_select: false },
      ],
    ]);
    expect(result.isError).toBe(false);
    expect(result.text).toBe(
      [
        'The user answered 2 of 3 questions:',
        '1. [Login] Which login method should the app use? → OAuth (recommended)',
        '2. [Scope] Which parts should I change? → Backend, Tests, "Docs too" (typed by the user)',
        '3. [Name] What should the service be called? → (no answer)',
        'The user gave no answer where it says (no answer); do not assume one.',
      ].join('\n'),
    );
    expect(result.data).toEqual({
      answers: [
        { question: login.question, header: 'Login', selected: ['OAuth (recommended)'], typed: [] },
        { question: parts.question, header: 'Scope', selected: ['Backend', 'Tests'], typed: ['Docs too'] },
        { question: name.question, header: 'Name', selected: [], typed: [] },
      ],
    });
  });

  it('says plainly when every question was answered', async () => {
    const { tool } = withAnswers([{ selected: ['password'] }]);
    expect((await runTool(tool, { questions: [login] }, { session })).text).toBe(
      'The user answered:\n1. [Login] Which login method should the app use? → Password',
    );
  });

  it('refuses a wrong number of answers and tells the model not to guess', async () => {
    const { tool } = withAnswers([{ selected: ['Password'] }]);
    expect(await runTool(tool, { questions: [login, name] }, { session })).toMatchObject({
      isError: true,
      text: 'The user interface returned 1 answer for 2 questions, so the answers cannot be matched to the questions. Do not guess what the user chose: ask again, or go on without the answers and say so.',
    });
  });

  it('turns a failing or cancelled callback into an error for the model', async () => {
    const failing = withAnswers(() => Promise.reject(new Error('terminal closed')));
    expect((await runTool(failing.tool, { questions: [login] }, { session })).text).toBe(
      'Asking the user failed: terminal closed. Do not guess what the user would choose: go on without the answers and say so.',
    );

    const controller = new AbortController();
    const hanging = withAnswers(() => new Promise(() => {}));
    const pending = runTool(hanging.tool, { questions: [login] }, { session, signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    expect(await pending).toMatchObject({ isError: true, text: 'The questions were cancelled before the user answered. Do not guess what the user would choose.' });
  });

  it.each([
    [{ questions: [] }, '`questions`: Ask at least one question'],
    [{ questions: [login, parts, name, { ...name, question: 'And a fourth?' }, { ...name, question: 'A fifth?' }] }, '`questions`: Ask at most 4 questions per call; ask the rest after these are answered'],
    [{ questions: [login, { ...name, question: ' which login method should the app use? ' }] }, '`questions.1.question`: This is the same question as question 1; ask each question once'],
    [{ questions: [{ ...login, header: 'Login method!' }] }, '`questions.0.header`: The header "Login method!" has 13 characters; keep it to 12, such as "Login"'],
    [{ questions: [{ ...login, header: '  ' }] }, '`questions.0.header`: The header is blank; give a short label such as "Login"'],
    [{ questions: [{ ...login, question: ' ' }] }, '`questions.0.question`: The question is blank; write the full question'],
    [{ questions: [{ ...login, options: [{ label: 'Only' }] }] }, '`questions.0.options`: Give at least 2 options'],
    [{ questions: [{ ...login, options: [{ label: 'A' }, { label: 'B' }, { label: 'C' }, { label: 'D' }, { label: 'E' }] }] }, '`questions.0.options`: Give at most 4 options; the user can always type an answer of their own'],
    [{ questions: [{ ...login, options: [{ label: 'Yes' }, { label: ' yes ' }] }] }, '`questions.0.options.1.label`: "yes" is also the label of option 1; give each option a different label'],
    [{ questions: [{ ...login, options: [{ label: 'Yes' }, { label: '' }] }] }, '`questions.0.options.1.label`: The label is blank; give every option a short label'],
    [{ questions: [{ ...login, options: [{ label: 'Yes' }, { label: 'Other' }] }] }, '`questions.0.options.1.label`: Leave out an "Other" option: the user can always type an answer of their own'],
  ])('refuses %j before the callback is called, naming the field', async (input, problem) => {
    const { tool, asked } = withAnswers([]);
    const result = await runTool(tool, input, { session });
    expect(result).toMatchObject({ isError: true, text: `Invalid arguments for ask_user_question: ${problem}. Fix the arguments and call ask_user_question again.` });
    expect(asked).toEqual([]);
  });

  it('reports every problem of a call at once', async () => {
    const { tool } = withAnswers([]);
    const result = await runTool(tool, { questions: [{ question: 'Which?', header: 'A header too long', options: [{ label: 'X' }, { label: 'x' }] }] }, { session });
    expect(result.text).toBe(
      'Invalid arguments for ask_user_question: `questions.0.header`: The header "A header too long" has 17 characters; keep it to 12, such as "Login"; `questions.0.options.1.label`: "x" is also the label of option 1; give each option a different label. Fix the arguments and call ask_user_question again.',
    );
  });
});

describe('ask_user_question answered by the user interface', () => {
  const { tools } = createAskUserTools();
  const tool = tools[0];
  const input = tool.input.parse({ questions: [login, parts] });

  it('is marked for the adapters, and its execute explains that the host cannot ask', async () => {
    expect(tool.answeredByClient).toBeDefined();
    expect(tool.kind).toBe('other');
    expect(await runTool(tool, { questions: [login] }, { session })).toMatchObject({
      isError: true,
      text: 'ask_user_question cannot reach the user here: this host has no way to show questions. Do not wait for answers: make a reasonable choice, say which one and why, and go on, or put the questions in your reply.',
    });
    expect(createAskUserTools({ ask: async () => [] }).tools[0].answeredByClient).toBeUndefined();
  });

  it('turns the client answer into the same reply as the callback', async () => {
    const answers = [{ selected: ['Password'] }, { selected: [] }];
    const fromClient = tool.answeredByClient!.toResult(input, { answers });
    const fromCallback = await runTool(withAnswers(answers).tool, { questions: [login, parts] }, { session });
    expect(fromClient).toEqual({ text: fromCallback.text, data: fromCallback.data });
    expect(fromCallback.text).toBe(
      [
        'The user answered 1 of 2 questions:',
        '1. [Login] Which login method should the app use? → Password',
        '2. [Scope] Which parts should I change? → (no answer)',
        'The user gave no answer where it says (no answer); do not assume one.',
      ].join('\n'),
    );
  });

  it('accepts the answer as JSON text too', () => {
    expect(tool.answeredByClient!.toResult(input, JSON.stringify({ answers: [{ selected: ['OAuth (recommended)'] }, { selected: ['Tests'] }] }))).toEqual({
      text: [
        'The user answered:',
        '1. [Login] Which login method should the app use? → OAuth (recommended)',
        '2. [Scope] Which parts should I change? → Tests',
      ].join('\n'),
      data: {
        answers: [
          { question: login.question, header: 'Login', selected: ['OAuth (recommended)'], typed: [] },
          { question: parts.question, header: 'Scope', selected: ['Tests'], typed: [] },
        ],
      },
    });
  });

  it.each([
    ['OAuth', 'The answer from the user interface could not be read (the answer: Invalid input: expected object, received string); expected { answers: [{ selected: [...] }] } with one entry per question. Do not guess what the user chose: ask again, or go on without the answers and say so.'],
    [{ answers: [{ selected: ['Password'] }] }, 'The user interface returned 1 answer for 2 questions, so the answers cannot be matched to the questions. Do not guess what the user chose: ask again, or go on without the answers and say so.'],
    [{ answers: [{ selected: 'Password' }, { selected: [] }] }, 'The answer from the user interface could not be read (answers.0.selected: Invalid input: expected array, received string); expected { answers: [{ selected: [...] }] } with one entry per question. Do not guess what the user chose: ask again, or go on without the answers and say so.'],
    [['Password'], 'The answer from the user interface could not be read (the answer: Invalid input: expected object, received array); expected { answers: [{ selected: [...] }] } with one entry per question. Do not guess what the user chose: ask again, or go on without the answers and say so.'],
    [undefined, 'The answer from the user interface could not be read (the answer: Invalid input: expected object, received undefined); expected { answers: [{ selected: [...] }] } with one entry per question. Do not guess what the user chose: ask again, or go on without the answers and say so.'],
  ])('answers %j with a readable error', (answer, text) => {
    expect(tool.answeredByClient!.toResult(input, answer)).toEqual({ text, isError: true });
  });
});

describe('createAskUserTools options', () => {
  it('refuses an ask that is not a function', () => {
    expect(() => createAskUserTools({ ask: 'prompt' as never })).toThrow(
      'Expected the `ask` option to be a function (questions, signal) => Promise<UserAnswer[]>, got `prompt` (string).',
    );
  });
});
