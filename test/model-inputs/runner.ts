/**
 * Runs model-inputs cases through one entry point (the core, or an adapter's own) and
 * classifies each reply by the issue's five outcomes: every case gets a workspace holding
 * the shared repository and its own files (a fresh folder, or one a case before left exactly
 * as written), new collections and a fresh session; its `before` calls run first (each must
 * succeed), then the call, with the whole tree snapshotted around it so that any change the
 * case does not expect is seen.
 */
import { readdirSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createAskUserTools,
  createDateTimeTools,
  createFileTools,
  createGitHubTools,
  createImageTools,
  createScratchTools,
  createSession,
  createShellTools,
  createSkillTools,
  createTaskListTools,
  PRIVATE_FOLDER,
  Workspace,
  type Session,
  type ToolCollection,
} from '../../src/index.js';
import type { Classification, ModelInputCase } from './case.js';
import { REPOSITORY, REPOSITORY_NAME } from './repository.js';

/** What the model reads back from one call. */
export interface Reply {
  readonly text: string;
  readonly isError: boolean;
}

/** One conversation through an entry point: calls in order, one session. */
export interface Conversation {
  call(tool: string, input: unknown): Promise<Reply>;
  close(): Promise<void>;
}

/** A way into the tools: the core's `runTool`, or an adapter's own entry point. */
export interface EntryPoint {
  readonly name: string;
  /** Why this entry point cannot carry the case's input as a model would send it; `undefined` when it can. */
  readonly cannotCarry: (input: unknown) => string | undefined;
  readonly open: (collections: readonly ToolCollection[], session: Session) => Promise<Conversation>;
}

/** A case with the file it came from. */
export interface LoadedCase {
  readonly file: string;
  readonly case: ModelInputCase;
}

/** How one case went through one entry point. */
export type CaseOutcome =
  | { readonly status: 'skipped'; readonly reason: string }
  | { readonly status: Classification; readonly why: string; readonly reply?: Reply };

const CASES_FOLDER = fileURLToPath(new URL('./cases/', import.meta.url));

/**
 * Every case of every file in `cases/`, in file order. A file may export any number of case
 * lists (each a `readonly ModelInputCase[]`); a new file is picked up without a change here.
 */
export async function loadCases(): Promise<LoadedCase[]> {
  const files = readdirSync(CASES_FOLDER)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'))
    .sort();
  const loaded: LoadedCase[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(CASES_FOLDER, file)).href)) as Record<string, unknown>;
    for (const exported of Object.values(module)) {
      if (!Array.isArray(exported)) continue;
      for (const entry of exported as ModelInputCase[]) loaded.push({ file, case: entry });
    }
  }
  return loaded;
}

/** A fixed clock, so dates in replies never depend on the day the suite runs. */
const NOW = () => new Date('2026-03-02T10:00:00Z');

/**
 * The collections every case meets: every collection of `src/index.ts`. `ask_user_question` is
 * answered with each question's first option; the repository has no skills and GitHub tools
 * run `gh` as installed (cases refused before a tool runs need neither).
 */
export async function createCollections(workspace: Workspace): Promise<ToolCollection[]> {
  return [
    createFileTools({ workspace, keepBackups: true }),
    createShellTools({ workspace }),
    createTaskListTools(),
    createScratchTools({ workspace, now: NOW }),
    createAskUserTools({ ask: async (questions) => questions.map((question) => ({ selected: [question.options[0]?.label ?? ''] })) }),
    createDateTimeTools({ now: NOW, timeZone: 'UTC' }),
    createImageTools({ workspace, vision: { ask: async ({ images, question }) => `Looked at ${images.map((image) => image.label).join(', ')}: ${question}` } }),
    createGitHubTools({ workspace }),
    await createSkillTools({ workspace }),
  ];
}

/**
 * Folders holding the repository, handed from case to case while no call changed them: a
 * folder goes back only when its tree is the repository's exactly and the private folder was
 * never made, so the next case meets what a fresh folder would hold. Cases with files of
 * their own get a folder of their own.
 */
export class RepositoryFolders {
  readonly #scratch: string;
  readonly #ready: string[] = [];
  #pristine: Tree | undefined;

  constructor(scratch: string) {
    this.#scratch = scratch;
  }

  async take(files: ModelInputCase['files']): Promise<string> {
    if (files === undefined && this.#ready.length > 0) return this.#ready.pop()!;
    // Named like the clone a model may have seen, so `shop/src/app.ts` has a root name to match.
    const root = path.join(await fs.mkdtemp(path.join(this.#scratch, 'case-')), REPOSITORY_NAME);
    await fs.mkdir(root);
    await writeTree(root, { ...REPOSITORY, ...files });
    if (files === undefined && this.#pristine === undefined) this.#pristine = await snapshot(root);
    return root;
  }

  async giveBack(root: string, files: ModelInputCase['files'], tree: Tree): Promise<void> {
    if (files !== undefined || this.#pristine === undefined || !sameTree(tree, this.#pristine)) return;
    if (await fs.stat(path.join(root, PRIVATE_FOLDER)).then(() => true, () => false)) return;
    this.#ready.push(root);
  }
}

/** Runs one case through one entry point, in a fresh session. Never throws: a throw is the (e) outcome. */
export async function runCase(entry: EntryPoint, loaded: LoadedCase, folders: RepositoryFolders): Promise<CaseOutcome> {
  const modelCase = loaded.case;
  const reason = [modelCase.input, ...(modelCase.before ?? []).map((call) => call.input)].map(entry.cannotCarry).find((text) => text !== undefined);
  if (reason !== undefined) return { status: 'skipped', reason };

  const root = await folders.take(modelCase.files);
  let conversation: Conversation | undefined;
  try {
    conversation = await entry.open(await createCollections(new Workspace(root)), createSession());
    for (const call of modelCase.before ?? []) {
      const reply = await conversation.call(call.tool, call.input);
      if (reply.isError) return { status: 'threw', why: `the \`before\` call ${call.tool} ${JSON.stringify(call.input)} failed`, reply };
    }
    const before = await snapshot(root);
    const reply = await conversation.call(modelCase.tool, modelCase.input);
    const after = await snapshot(root);
    await folders.giveBack(root, modelCase.files, after);
    return classify(modelCase, reply, before, after);
  } catch (error) {
    return { status: 'threw', why: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  } finally {
    // A folder not given back stays until the run removes the scratch folder: removing each costs more than the call.
    await conversation?.close().catch(() => undefined);
  }
}

function sameTree(one: Tree, other: Tree): boolean {
  if (one.files.size !== other.files.size || one.folders.size !== other.folders.size) return false;
  for (const [file, content] of one.files) if (!other.files.get(file)?.equals(content)) return false;
  return [...one.folders].every((folder) => other.folders.has(folder));
}

/** Writes the repository: a string is a file's text, `null` a folder. Files are written side by side. */
async function writeTree(root: string, files: Readonly<Record<string, string | null>>): Promise<void> {
  const entries = Object.entries(files);
  const folders = new Set(entries.map(([relative, content]) => (content === null ? relative : path.dirname(relative))));
  for (const folder of [...folders].sort()) await fs.mkdir(path.join(root, folder), { recursive: true });
  await Promise.all(entries.flatMap(([relative, content]) => (content === null ? [] : [fs.writeFile(path.join(root, relative), content)])));
}

/** The whole tree: every file's bytes (a link's target), every folder. */
interface Tree {
  readonly files: ReadonlyMap<string, Buffer>;
  readonly folders: ReadonlySet<string>;
}

/**
 * Bookkeeping of the private folder, which no call's meaning is about: the folder itself,
 * its `.gitignore`, the backups `keepBackups` keeps and spilled output. Notes and the session
 * log inside it are state a model changes, and are compared like any file.
 */
function isBookkeeping(relative: string, isFolder: boolean): boolean {
  if (!relative.startsWith(`${PRIVATE_FOLDER}/`) && relative !== PRIVATE_FOLDER) return false;
  if (isFolder || relative === `${PRIVATE_FOLDER}/.gitignore`) return true;
  return relative.startsWith(`${PRIVATE_FOLDER}/backups/`) || relative.startsWith(`${PRIVATE_FOLDER}/output/`);
}

async function snapshot(root: string): Promise<Tree> {
  const files = new Map<string, Buffer>();
  const folders = new Set<string>();
  const visit = async (folder: string): Promise<void> => {
    for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
      const absolute = path.join(folder, entry.name);
      const relative = path.relative(root, absolute).split(path.sep).join('/');
      if (entry.isDirectory()) {
        if (!isBookkeeping(relative, true)) folders.add(relative);
        await visit(absolute);
      } else if (!isBookkeeping(relative, false)) {
        files.set(relative, entry.isSymbolicLink() ? Buffer.from(`-> ${await fs.readlink(absolute)}`) : await fs.readFile(absolute));
      }
    }
  };
  await visit(root);
  return { files, folders };
}

/** What changed from one tree to the next, as lines a person reads. */
function changes(before: Tree, after: Tree, expected: Readonly<Record<string, string | null>>): string[] {
  const found: string[] = [];
  for (const [file, content] of after.files) {
    if (file in expected) continue;
    const old = before.files.get(file);
    if (old === undefined) found.push(`created ${file}`);
    else if (!old.equals(content)) found.push(`changed ${file}`);
  }
  for (const file of before.files.keys()) if (!after.files.has(file) && !(file in expected)) found.push(`removed ${file}`);
  const made = new Set(Object.entries(expected).flatMap(([file, content]) => (content === null ? [] : ancestors(file))));
  for (const folder of after.folders) if (!before.folders.has(folder) && !made.has(folder)) found.push(`created folder ${folder}/`);
  for (const folder of before.folders) if (!after.folders.has(folder)) found.push(`removed folder ${folder}/`);
  return found;
}

function ancestors(file: string): string[] {
  const parts = file.split('/').slice(0, -1);
  return parts.map((_, index) => parts.slice(0, index + 1).join('/'));
}

/** The files the case expects that are not as it says. */
function missedExpectations(after: Tree, expected: Readonly<Record<string, string | null>>): string[] {
  return Object.entries(expected).flatMap(([file, content]) => {
    const actual = after.files.get(file);
    if (content === null) return actual === undefined ? [] : [`${file} should not exist`];
    if (actual === undefined) return [`${file} should exist`];
    return actual.equals(Buffer.from(content)) ? [] : [`${file} should hold ${JSON.stringify(content)}, holds ${JSON.stringify(actual.toString())}`];
  });
}

function matches(text: string, wanted: string | RegExp): boolean {
  return typeof wanted === 'string' ? text.includes(wanted) : wanted.test(text);
}

/** The issue's classification of one reply, with the reason in words. */
export function classify(modelCase: ModelInputCase, reply: Reply, before: Tree, after: Tree): CaseOutcome {
  const { expect } = modelCase;
  if (reply.isError) {
    // A refusal changes nothing, whatever was expected.
    const changed = changes(before, after, {});
    if (changed.length > 0) return { status: 'did-something-else', why: `refused, but the tree changed: ${changed.join(', ')}`, reply };
    if (expect.outcome === 'salvaged') return { status: 'did-something-else', why: 'refused where the call should have been salvaged', reply };
    if (matches(reply.text, expect.fix)) return { status: 'refused-with-fix', why: 'refused with the fix', reply };
    return { status: 'refused-unclear', why: `refused without the fix ${String(expect.fix)}`, reply };
  }
  if (expect.outcome === 'refused') {
    const changed = changes(before, after, {});
    return { status: 'did-something-else', why: `succeeded where a refusal was expected${changed.length === 0 ? '' : `: ${changed.join(', ')}`}`, reply };
  }
  const expected = expect.disk ?? {};
  const missed = [...missedExpectations(after, expected), ...changes(before, after, expected)];
  if (missed.length > 0) return { status: 'did-something-else', why: missed.join('; '), reply };
  if (expect.reply !== undefined && !matches(reply.text, expect.reply)) {
    return { status: 'did-something-else', why: `the disk is as meant, but the reply does not contain ${String(expect.reply)}`, reply };
  }
  return { status: 'salvaged', why: 'did what the model meant', reply };
}

/** Runs `work` over `items` with at most `limit` running at once, keeping the order of results. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
