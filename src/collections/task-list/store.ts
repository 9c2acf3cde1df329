import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseStoredList, toStoredList } from './stored-list.js';
import type { TaskListSnapshot } from './task.js';

/** What a {@link TaskListStore} loads: the list, and notes about anything it had to recover from. */
export interface LoadedTaskList extends TaskListSnapshot {
  /** Said to the model and the host once, e.g. that an unreadable file was moved aside. */
  readonly notes?: readonly string[];
}

/**
 * Where a collection keeps one task list shared by every session it serves. The collection
 * serialises its calls, loads before each one and saves after each change; a list that
 * breaks a rule is repaired after loading. Implement it for a database or a key-value store.
 */
export interface TaskListStore {
  /** The stored list, or `undefined` when nothing has been stored yet. */
  load(): Promise<LoadedTaskList | undefined>;
  /** Stores the whole list; the next `load` must return it. */
  save(list: TaskListSnapshot): Promise<void>;
}

/**
 * Keeps one task list in a JSON file. Writes go to a temporary file in the same folder and
 * are renamed over the old one, so a crash never leaves half a list. A file that cannot be
 * read as a task list is moved to `<path>.corrupt` (`.corrupt-2` … when that is taken) and the list starts empty. Meant for one
 * process: two processes on one file overwrite each other's changes.
 *
 * @example
 * const tasks = createTaskListTools({ store: new JsonFileTaskListStore('tasks/session-42.json') });
 */
export class JsonFileTaskListStore implements TaskListStore {
  /** The file, as an absolute path. Missing folders are created on the first save. */
  readonly path: string;

  constructor(file: string) {
    if (typeof file !== 'string' || file.trim() === '') {
      throw new TypeError(`Expected JsonFileTaskListStore to get a file path, got ${JSON.stringify(file) ?? String(file)}.`);
    }
    this.path = path.resolve(file);
  }

  async load(): Promise<LoadedTaskList | undefined> {
    let text: string;
    try {
      text = await fs.readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    let value: unknown;
    try {
      // Some editors save JSON with a byte order mark, which JSON.parse refuses.
      value = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
    } catch (error) {
      return this.#setAside(`it is not JSON (${(error as Error).message})`);
    }
    const parsed = parseStoredList(value);
    if ('problem' in parsed) return this.#setAside(`it is not a task list (${parsed.problem})`);
    return parsed.list;
  }

  async save(list: TaskListSnapshot): Promise<void> {
    const directory = path.dirname(this.path);
    await fs.mkdir(directory, { recursive: true });
    const temporary = path.join(directory, `.${path.basename(this.path)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const handle = await fs.open(temporary, 'wx');
      try {
        await handle.writeFile(`${JSON.stringify(toStoredList(list), null, 2)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temporary, this.path);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
  }

  async #setAside(reason: string): Promise<LoadedTaskList> {
    // An earlier corrupt copy is kept: the next free name of `.corrupt`, `.corrupt-2`, `.corrupt-3` …
    let corrupt = `${this.path}.corrupt`;
    for (let number = 2; await exists(corrupt); number += 1) corrupt = `${this.path}.corrupt-${number}`;
    await fs.rename(this.path, corrupt);
    return {
      nextId: 1,
      tasks: [],
      notes: [`the task file ${this.path} could not be read because ${reason}; it was moved to ${corrupt} and the list started empty`],
    };
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(
    () => true,
    () => false,
  );
}
