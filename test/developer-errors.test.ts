import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toAiSdk } from '../adapters/ai-sdk/index.js';
import { toLangChain } from '../adapters/langchain/index.js';
import { createMcpServer } from '../adapters/mcp/index.js';
import { toOpenAI } from '../adapters/openai/index.js';
import { createFileTools, createSession, runTool, Workspace, type ToolCollection } from '../src/index.js';
import { NO_APPROVER_WARNING_CODE } from '../src/no-approver-warning.js';

/**
 * The mistakes a developer makes on a first day, each answered word for word with what is
 * wrong and how to fix it, instead of an error from deep inside (`collections is not
 * iterable`, `Cannot read properties of undefined (reading 'queued')`).
 */
let folder: string;
let files: ToolCollection;

beforeAll(async () => {
  folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-errors-')));
  await fs.writeFile(path.join(folder, 'notes.txt'), 'hello\n');
  files = createFileTools({ workspace: new Workspace(folder) });
});

afterAll(async () => {
  await fs.rm(folder, { recursive: true, force: true });
});

const readFile = () => files.tools.find((tool) => tool.name === 'read_file')!;

describe('runTool', () => {
  it('without options says to pass the session', async () => {
    await expect(runTool(readFile(), { path: 'notes.txt' }, undefined as never)).rejects.toThrow(
      new TypeError(
        "runTool needs options with the conversation's session, got `undefined`. Call `runTool(tool, input, { session })` with `const session = createSession()`, one per conversation.",
      ),
    );
  });

  it('without a session says how to make one', async () => {
    await expect(runTool(readFile(), { path: 'notes.txt' }, {} as never)).rejects.toThrow(
      new TypeError(
        'Expected the `session` option of runTool to be a Session, got `undefined`. Create one per conversation with `createSession()` and call `runTool(tool, input, { session })`.',
      ),
    );
  });

  it('without a tool (a `find` that matched nothing) says to check the name', async () => {
    const missing = files.tools.find((tool) => tool.name === 'read_files');
    await expect(runTool(missing!, {}, { session: createSession() })).rejects.toThrow(
      new TypeError(
        "Expected the first argument of runTool to be a tool (from defineTool, or a collection's `tools`), got `undefined`. If you looked it up with `tools.find(…)`, check the tool's name.",
      ),
    );
  });
});

describe('the adapters, given something other than an array of collections', () => {
  const session = createSession();
  const adapters: Array<[string, (collections: never) => unknown]> = [
    ['toOpenAI', (collections) => toOpenAI(collections, { api: 'chat', session })],
    ['createMcpServer', (collections) => createMcpServer(collections, { session })],
    ['toLangChain', (collections) => toLangChain(collections, { session })],
    ['toAiSdk', (collections) => toAiSdk(collections, { session })],
  ];

  for (const [name, adapt] of adapters) {
    it(`${name}: one collection, not in an array`, () => {
      expect(() => adapt(files as never)).toThrow(
        new TypeError(`Expected the first argument of ${name} to be an array of tool collections, got one collection (\`files\`). Put it in an array: \`${name}([collection], options)\`.`),
      );
    });

    it(`${name}: an array of tools`, () => {
      expect(() => adapt(files.tools as never)).toThrow(
        new TypeError(
          `Expected the first argument of ${name} to be an array of tool collections, got a tool (\`list_directory\`) at index 0. Pass the collections that hold the tools, e.g. \`${name}([createFileTools({ workspace })], options)\`, or put your own tools in a collection: \`${name}([{ name: 'my-tools', tools: [myTool] }], options)\`.`,
        ),
      );
    });

    it(`${name}: nothing at all`, () => {
      expect(() => adapt(undefined as never)).toThrow(
        new TypeError(
          `Expected the first argument of ${name} to be an array of tool collections, got \`undefined\`. Pass the collections you made, e.g. \`${name}([createFileTools({ workspace })], options)\`.`,
        ),
      );
    });
  }
});

describe('a call that needs approval in a host that cannot ask', () => {
  it('is refused for the model as before, and the developer is warned once, with the options that fix it', async () => {
    const warnings: Error[] = [];
    const listener = (warning: Error) => warnings.push(warning);
    process.on('warning', listener);
    try {
      const session = createSession();
      await runTool(readFile(), { path: 'notes.txt' }, { session });
      const writeFile = files.tools.find((tool) => tool.name === 'write_file')!;
      const first = await runTool(writeFile, { path: 'notes.txt', content: 'bye\n' }, { session });
      const second = await runTool(writeFile, { path: 'notes.txt', content: 'again\n' }, { session });
      await new Promise((resolve) => setImmediate(resolve)); // process warnings are emitted on the next tick
      for (const result of [first, second]) {
        expect(result).toEqual({
          text: "write_file needs the user's approval and this host cannot ask for it, so it was not run. Tell the user what you wanted to do and let them run it, or use a tool that needs no approval.",
          isError: true,
        });
      }
      expect(warnings.map((warning) => [warning.name, (warning as Error & { code?: string }).code, warning.message])).toEqual([
        [
          'AgentToolbeltWarning',
          NO_APPROVER_WARNING_CODE,
          "agent-toolbelt refused a call to write_file: it needs a person's approval, and no `approve` function was given to ask for one (the model was told it was not run). To ask a person, pass `approve` to runTool or the `onApproval` option to the adapter; to let the tool run unasked, pass `needsApproval: { write_file: false }` or `mode: 'auto'`. This warning is shown once.",
        ],
      ]);
      expect(await fs.readFile(path.join(folder, 'notes.txt'), 'utf8')).toBe('hello\n');
    } finally {
      process.off('warning', listener);
    }
  });
});

describe('new Workspace', () => {
  it('with a relative root that does not exist shows where it was looked for', () => {
    const resolved = path.resolve('./missing-workspace-root');
    expect(() => new Workspace('./missing-workspace-root')).toThrow(
      `The workspace root \`./missing-workspace-root\` (resolved to ${resolved}) does not exist. Create the folder or pass another one.`,
    );
  });

  it('with an absolute root shows it once', () => {
    const missing = path.join(folder, 'nope');
    expect(() => new Workspace(missing)).toThrow(`The workspace root \`${missing}\` does not exist. Create the folder or pass another one.`);
  });
});
