/**
 * The conformance scenarios: what every adapter (AI SDK, LangChain, OpenAI, MCP) must do the
 * same way, written once and run against each of them by `conformance.test.ts`.
 *
 * - a tool loop carries each tool's text to the model, turn after turn;
 * - an unknown tool or bad arguments come back as an error result and the run goes on;
 * - a call that needs approval asks the person once, with the core's description, and runs
 *   only when approved; a denial reaches the model with its reason; "always" is remembered;
 * - plan mode and policy refusals (a path out of the workspace) refuse without asking;
 * - the context (date, open tasks) is the last message of every model call;
 * - a tool that throws becomes a readable error result.
 *
 * Where a framework answers before the toolbelt runs (MCP's argument check, unknown tools),
 * the scenario says so and asserts the framework's words.
 */
import { expect } from 'vitest';
import { collectContext, createDateTimeTools, createSession, createShellTools, createTaskListTools } from '../../src/index.js';
import type { Driver } from './driver.js';
import { brokenTools, createProject, personAnswering } from './project.js';

/**
 * One behaviour every adapter must show, written once. `run` plays a conversation through a
 * driver and asserts what the model read: the exact texts of the core, whatever the framework.
 */
export interface Scenario {
  readonly name: string;
  /** Runs under each framework's own approval flow too, not only under `onApproval`. */
  readonly aboutApproval?: boolean;
  /** Why a driver cannot run this scenario; `undefined` when it can. */
  readonly skip?: (driver: Driver) => string | undefined;
  /**
   * A gap the suite found in a driver's adapter and the owner has not closed yet, or
   * `undefined`: the scenario is expected to fail an assertion there until it is; the test
   * fails once it passes, so it can become a plain scenario.
   */
  readonly knownGap?: (driver: Driver) => string | undefined;
  readonly run: (driver: Driver) => Promise<void>;
}

// The texts the core gives the model, spelled out so a change of wording shows up here.
const NOTES = 'notes.txt: lines 1-2 of 2 (end of file).\n1: alpha\n2: beta';
const TODO = 'todo.txt: line 1 of 1 (end of file).\n1: buy milk';
const MISSING_PATH = 'Invalid arguments for read_file: `path`: Invalid input: expected string, received undefined. Fix the arguments and call read_file again.';
const OUTSIDE = 'is outside the workspace. Use a path relative to the workspace root, such as `src/index.ts`.';
const DENIED = 'Action denied by the user: write_file was not run. Do not retry the same call; ask or change approach. The user said: Keep the notes as they are.';
const EXPLODED = 'explode failed with an unexpected error: disk on fire. This is not a problem with your input; try another approach or tell the user.';
const PLAN_MODE = 'edit_file is not available in plan mode: edit tools are switched off until the user leaves plan mode. Describe the change you would make instead.';
const DATE_LINE = 'Current date and time: Monday, 2026-11-30T09:15:00+00:00 (UTC)';

const readNotes = { tool: 'read_file', input: { path: 'notes.txt' } };
const readTodo = { tool: 'read_file', input: { path: 'todo.txt' } };

export const scenarios: readonly Scenario[] = [
  {
    name: 'a tool loop: what read_file returns reaches the model, turn after turn',
    async run(driver) {
      const project = await createProject();

      const seen = await driver.run({ collections: [project.files], session: createSession(), turns: [[readNotes], [readTodo]] });

      expect(seen.results).toEqual([
        { tool: 'read_file', text: NOTES, isError: false },
        { tool: 'read_file', text: TODO, isError: false },
      ]);
    },
  },
  {
    name: 'bad arguments: the model reads which field is wrong, and the run goes on',
    async run(driver) {
      const project = await createProject();

      const seen = await driver.run({ collections: [project.files], session: createSession(), turns: [[{ tool: 'read_file', input: {} }], [readNotes]] });

      expect(seen.results).toHaveLength(2);
      if (driver.validatesArgumentsFirst) {
        // The MCP SDK checks the arguments against the schema before the core sees them, so
        // the text is the SDK's; it is still an error result that names the field.
        expect(seen.results[0]).toEqual({
          tool: 'read_file',
          text: 'MCP error -32602: Input validation error: Invalid arguments for tool read_file: Invalid input: expected string, received undefined at path',
          isError: true,
        });
      } else {
        expect(seen.results[0]).toEqual({ tool: 'read_file', text: MISSING_PATH, isError: true });
      }
      expect(seen.results[1]).toEqual({ tool: 'read_file', text: NOTES, isError: false });
    },
  },
  {
    name: 'an unknown tool: the model is told the call failed, and the run goes on',
    async run(driver) {
      const project = await createProject();

      const seen = await driver.run({ collections: [project.files], session: createSession(), turns: [[{ tool: 'read_fiel', input: { path: 'notes.txt' } }], [readNotes]] });

      expect(seen.results).toHaveLength(2);
      // The framework answers before any toolbelt code runs, so each words it its own way.
      expect(seen.results[0]).toMatchObject({ tool: 'read_fiel', isError: true });
      expect(seen.results[0]!.text).toContain('read_fiel');
      expect(seen.results[1]).toEqual({ tool: 'read_file', text: NOTES, isError: false });
    },
  },
  {
    name: 'approval, approved: write_file and edit_file ask, then change the file on disk',
    aboutApproval: true,
    async run(driver) {
      const project = await createProject();
      const person = personAnswering('approve');

      const seen = await driver.run({
        collections: [project.files],
        session: createSession(),
        approver: person.approver,
        needsApproval: { edit_file: true },
        turns: [[readNotes], [{ tool: 'write_file', input: { path: 'notes.txt', content: 'gamma\n' } }], [{ tool: 'edit_file', input: { path: 'notes.txt', old_string: 'gamma', new_string: 'delta' } }]],
      });

      expect(person.asked).toEqual([
        { toolName: 'write_file', description: 'Overwrite notes.txt with 1 line (6 characters)' },
        { toolName: 'edit_file', description: 'Edit notes.txt:\n-gamma\n+delta' },
      ]);
      expect(seen.results).toEqual([
        { tool: 'read_file', text: NOTES, isError: false },
        { tool: 'write_file', text: 'Wrote `notes.txt` (1 line).', isError: false },
        { tool: 'edit_file', text: 'Edited `notes.txt`: 1 replacement. The changed lines now read:\n1: delta', isError: false },
      ]);
      expect(await project.read('notes.txt')).toBe('delta\n');
    },
  },
  {
    name: 'approval, denied: the model reads the denial with the reason, and the file is untouched',
    aboutApproval: true,
    async run(driver) {
      const project = await createProject();
      const person = personAnswering({ type: 'deny', reason: 'Keep the notes as they are.' });

      const seen = await driver.run({
        collections: [project.files],
        session: createSession(),
        approver: person.approver,
        turns: [[readNotes], [{ tool: 'write_file', input: { path: 'notes.txt', content: 'gamma\n' } }]],
      });

      expect(person.asked.map((asked) => asked.toolName)).toEqual(['write_file']);
      expect(seen.results[1]).toEqual({ tool: 'write_file', text: DENIED, isError: true });
      expect(await project.read('notes.txt')).toBe('alpha\nbeta\n');
    },
  },
  {
    name: 'approval, always: the answer is kept in the session, so the next write_file runs unasked',
    aboutApproval: true,
    async run(driver) {
      const project = await createProject();
      const person = personAnswering('always');
      const session = createSession();

      const seen = await driver.run({
        collections: [project.files],
        session,
        approver: person.approver,
        turns: [[readNotes], [{ tool: 'write_file', input: { path: 'notes.txt', content: 'gamma\n' } }], [{ tool: 'write_file', input: { path: 'notes.txt', content: 'delta\n' } }]],
      });

      expect(person.asked.map((asked) => asked.toolName)).toEqual(['write_file']);
      expect(session.isApproved('write_file')).toBe(true);
      expect(seen.results.slice(1)).toEqual([
        { tool: 'write_file', text: 'Wrote `notes.txt` (1 line).', isError: false },
        { tool: 'write_file', text: 'Wrote `notes.txt` (1 line).', isError: false },
      ]);
      expect(await project.read('notes.txt')).toBe('delta\n');
    },
  },
  {
    name: 'plan mode refuses a write without asking, and tells the model what to do instead',
    aboutApproval: true,
    async run(driver) {
      const project = await createProject();
      const person = personAnswering('approve');

      const seen = await driver.run({
        collections: [project.files],
        session: createSession(),
        approver: person.approver,
        mode: 'plan',
        turns: [[readNotes], [{ tool: 'edit_file', input: { path: 'notes.txt', old_string: 'alpha', new_string: 'omega' } }]],
      });

      expect(person.asked).toEqual([]);
      expect(seen.results).toEqual([
        { tool: 'read_file', text: NOTES, isError: false },
        { tool: 'edit_file', text: PLAN_MODE, isError: true },
      ]);
      expect(await project.read('notes.txt')).toBe('alpha\nbeta\n');
    },
  },
  {
    name: 'a policy refusal never asks: run_shell in `..` is refused before anyone is asked, and nothing runs',
    aboutApproval: true,
    async run(driver) {
      const project = await createProject();
      const person = personAnswering('approve');

      const seen = await driver.run({
        collections: [createShellTools({ workspace: project.workspace })],
        session: createSession(),
        approver: person.approver,
        turns: [[{ tool: 'run_shell', input: { command: 'touch ran.txt', working_directory: '..' } }]],
      });

      expect(seen.results).toEqual([{ tool: 'run_shell', text: `working_directory: \`..\` ${OUTSIDE}`, isError: true }]);
      expect(person.asked).toEqual([]);
      expect(await project.exists('ran.txt')).toBe(false);
      expect(await project.exists('../ran.txt')).toBe(false);
    },
  },
  {
    name: 'a jail-breaking path: write_file to ../outside.txt is refused with the path error, and the file outside is untouched',
    aboutApproval: true,
    async run(driver) {
      const project = await createProject();
      const person = personAnswering('approve');

      const seen = await driver.run({
        collections: [project.files],
        session: createSession(),
        approver: person.approver,
        turns: [[{ tool: 'write_file', input: { path: '../outside.txt', content: 'pwned\n' } }]],
      });

      expect(seen.results).toEqual([{ tool: 'write_file', text: `\`../outside.txt\` ${OUTSIDE}`, isError: true }]);
      expect(await project.read('../outside.txt')).toBe('untouched\n');
    },
  },
  {
    name: 'a jail-breaking path never asks: write_file to ../outside.txt is refused before anyone is asked',
    aboutApproval: true,
    async run(driver) {
      const project = await createProject();
      const person = personAnswering('approve');

      await driver.run({
        collections: [project.files],
        session: createSession(),
        approver: person.approver,
        turns: [[{ tool: 'write_file', input: { path: '../outside.txt', content: 'pwned\n' } }]],
      });

      expect(person.asked).toEqual([]);
    },
  },
  {
    name: 'one batch, in the order given: a read_file after an approved edit_file in the same turn sees the edit',
    aboutApproval: true,
    // With onApproval the session's call order (withCallOrder) holds the read back until the
    // edit is done. The frameworks' own approval flows end the step before the person answers.
    knownGap: (driver) => {
      if ((driver.framework === 'ai-sdk' || driver.framework === 'langchain') && driver.approvals === 'native') {
        return "The framework's own approval flow ends the step before the person answers, and the other calls of the step have run by then, so the read placed after the edit reads the old text.";
      }
      if (driver.framework === 'openai' && driver.approvals === 'native') {
        return '`handleToolCalls` runs the read placed after the edit at once and leaves the edit pending for `resolvePending`, so the model reads the old text.';
      }
      if (driver.framework === 'anthropic' && driver.approvals === 'native') {
        return '`handleToolUses` runs the read placed after the edit at once and leaves the edit pending for `resolvePending`, so the model reads the old text.';
      }
      return undefined;
    },
    async run(driver) {
      const project = await createProject();
      const person = personAnswering('approve');
      const edit = { tool: 'edit_file', input: { path: 'notes.txt', old_string: 'alpha', new_string: 'omega' } };

      const seen = await driver.run({
        collections: [project.files],
        session: createSession(),
        approver: person.approver,
        needsApproval: { edit_file: true },
        turns: [[readNotes, edit, readNotes]],
      });

      expect(await project.read('notes.txt')).toBe('omega\nbeta\n');
      expect(seen.results.find((result) => result.tool === 'edit_file')).toEqual({
        tool: 'edit_file',
        text: 'Edited `notes.txt`: 1 replacement. The changed lines now read:\n1: omega',
        isError: false,
      });
      const reads = seen.results.filter((result) => result.tool === 'read_file');
      expect(reads).toEqual([
        { tool: 'read_file', text: NOTES, isError: false },
        { tool: 'read_file', text: 'notes.txt: lines 1-2 of 2 (end of file).\n1: omega\n2: beta', isError: false },
      ]);
    },
  },
  {
    name: 'context injection: the next model call ends with one message holding the date and the new task',
    skip: (driver) => (driver.hasPrompt ? undefined : 'an MCP server never sees the prompt; the MCP host injects its own context'),
    async run(driver) {
      const session = createSession();
      const collections = [createDateTimeTools({ now: () => new Date('2026-11-30T09:15:00Z'), timeZone: 'UTC' }), createTaskListTools()];

      const seen = await driver.run({ collections, session, turns: [[{ tool: 'task_add', input: { tasks: [{ subject: 'Fix the parser' }] } }]] });

      expect(seen.results).toEqual([{ tool: 'task_add', text: 'Added #1 "Fix the parser". Now 1 open, 0 completed.', isError: false }]);
      const context = await collectContext(collections, session);
      expect(context?.startsWith(`${DATE_LINE}\n\n`)).toBe(true);
      expect(context).toContain('Fix the parser');
      const prompt = seen.lastPrompt!;
      expect(prompt.at(-1)).toContain(context);
      expect(prompt.filter((message) => message.includes(DATE_LINE))).toHaveLength(1);
    },
  },
  {
    name: 'a custom tool that throws: the model reads a readable error, and the run goes on',
    async run(driver) {
      const project = await createProject();

      const seen = await driver.run({ collections: [project.files, brokenTools], session: createSession(), turns: [[{ tool: 'explode', input: {} }], [readNotes]] });

      expect(seen.results).toEqual([
        { tool: 'explode', text: EXPLODED, isError: true },
        { tool: 'read_file', text: NOTES, isError: false },
      ]);
    },
  },
];
