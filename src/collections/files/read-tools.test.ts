import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReadOnlyFileTools as exported } from '../../index.js';
import { Workspace } from '../../workspace/workspace.js';
import { createReadOnlyFileTools, createReadTools } from './read-tools.js';
import { validateReadToolsOptions, type ReadToolsOptions } from './read-options.js';

let base: string;
let workspace: Workspace;
beforeAll(async () => {
  base = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-read-options-'));
  workspace = new Workspace(base);
});
afterAll(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe('createReadOnlyFileTools', () => {
  it('is exported from the package and gives the four reading tools in order, none asking for approval', () => {
    expect(exported).toBe(createReadOnlyFileTools);
    const files = createReadOnlyFileTools({ workspace });
    expect(files.name).toBe('files');
    expect(files.tools.map((tool) => [tool.name, tool.kind])).toEqual([
      ['list_directory', 'read'],
      ['find_files', 'search'],
      ['search_files', 'search'],
      ['read_file', 'read'],
    ]);
    expect(files.tools.every((tool) => tool.needsApproval === undefined)).toBe(true);
    expect(files.instructions).toContain('list_directory, find_files (names, by glob), search_files (contents, by regular expression) and read_file');
  });

  it('describes every input field for the model', () => {
    for (const tool of createReadTools({ workspace })) {
      const schema = z.toJSONSchema(tool.input) as { properties: Record<string, { description?: string }> };
      for (const [field, property] of Object.entries(schema.properties)) {
        expect(property.description, `${tool.name}.${field}`).toMatch(/\S{3}/);
      }
      expect(tool.description.length).toBeGreaterThan(100);
      expect(tool.description).not.toMatch(/\{\w+\}/);
    }
  });

  it('puts the configured limits into the descriptions', () => {
    const [, find, search, read] = createReadTools({ workspace, maxFindResults: 20, maxSearchFileBytes: 1024 * 1024, maxReadCharacters: 10_000, maxLineLength: 500 });
    expect(find!.description).toContain('Returns at most 20 paths');
    expect(find!.description).toContain('.git, node_modules, bin, obj, .toolbelt');
    expect(search!.description).toContain('files over 1.0 MB are counted, not searched');
    expect(read!.description).toContain('A reply holds at most 10,000 characters');
    expect(read!.description).toContain('Lines over 500 characters are cut');
  });

  it('states a field rule once, in the field, since every adapter sends both texts on every call', () => {
    const [, find, search] = createReadTools({ workspace });
    const fields = (tool: typeof find) => (z.toJSONSchema(tool!.input) as { properties: Record<string, { description: string }> }).properties;
    expect(fields(find).pattern.description).toContain('Glob (*, **, ?, [abc], {a,b}). Without "/" it matches names at any depth');
    expect(find!.description).not.toContain('[abc]');
    expect(fields(search).limit.description).toContain('Default 100, at most 1000.');
    expect(fields(search).mode.description).toContain("N ready for read_file's start_line");
    expect(search!.description).not.toMatch(/default 100|"counts"/);
  });
});

describe('validateReadToolsOptions', () => {
  it('fills in the defaults', () => {
    expect(validateReadToolsOptions({ workspace })).toEqual({
      workspace,
      maxReadCharacters: 51_200,
      maxLineLength: 2_000,
      maxFindResults: 100,
      maxSearchFileBytes: 10 * 1024 * 1024,
      searchTimeoutMs: 30_000,
      regexTimeoutMs: 2_000,
      maxMatchLineLength: 500,
      skippedFolders: ['.git', 'node_modules', 'bin', 'obj', '.toolbelt'],
      ripgrep: true,
      ripgrepAfterFiles: 300,
    });
    expect(validateReadToolsOptions({ workspace, maxReadCharacters: 3_000 }).maxLineLength).toBe(1_500);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ maxReadCharacters: -1 }, 'Expected the `maxReadCharacters` option to be a positive integer, got `-1` (number).'],
    [{ maxLineLength: 1.5 }, 'Expected the `maxLineLength` option to be a positive integer, got `1.5` (number).'],
    [{ maxFindResults: '100' }, 'Expected the `maxFindResults` option to be a positive integer, got `100` (string).'],
    [{ maxSearchFileBytes: 0 }, 'Expected the `maxSearchFileBytes` option to be a positive integer, got `0` (number).'],
    [{ searchTimeoutMs: Number.NaN }, 'Expected the `searchTimeoutMs` option to be a positive integer, got `NaN` (number).'],
    [{ regexTimeoutMs: null }, 'Expected the `regexTimeoutMs` option to be a positive integer, got `null`.'],
    [{ maxReadCharacters: 500 }, 'Expected the `maxReadCharacters` option to be at least 1000, got `500` (number).'],
    [{ maxReadCharacters: 2_000, maxLineLength: 1_500 }, 'Expected the `maxLineLength` option to be at most half of `maxReadCharacters` (1000), got `1500` (number).'],
    [{ skippedFolders: ['a/b'] }, 'Expected the `skippedFolders` option to be an array of folder names (no `/`), got `["a/b"]` (array).'],
    [{ ripgrep: '' }, 'Expected the `ripgrep` option to be true, false or the path of the rg program, got `` (string).'],
    [{ ripgrep: 1 }, 'Expected the `ripgrep` option to be true, false or the path of the rg program, got `1` (number).'],
    [{ ripgrepAfterFiles: -1 }, 'Expected the `ripgrepAfterFiles` option to be a whole number of files (0 or more), got `-1` (number).'],
  ])('refuses %o, naming the option', (bad, message) => {
    expect(() => createReadOnlyFileTools({ workspace, ...bad } as ReadToolsOptions)).toThrow(new TypeError(message));
  });

  it('refuses a missing workspace', () => {
    expect(() => createReadOnlyFileTools({} as ReadToolsOptions)).toThrow(
      new TypeError('Expected the `workspace` option to be a Workspace (new Workspace(root)), got `undefined` (undefined).'),
    );
  });
});
