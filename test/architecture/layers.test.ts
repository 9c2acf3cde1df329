import { existsSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { adapterOf, collectionOf, FRAMEWORK_PACKAGES, importCircles, layerOf, MAY_IMPORT, readSourceTree, REPOSITORY, type SourceModule } from './source-tree.js';

/**
 * The architecture, read from the imports: every arrow points down (core ← workspace ←
 * background ← collections ← dialects ← box server and adapters; stores beside the core), no
 * collection or adapter reaches into a sibling, `src/` imports no framework, no module is part
 * of an import circle, and files and functions stay short enough to read in one sitting.
 */
const modules = readSourceTree();
const byFile = new Map(modules.map((module) => [module.file, module]));

/** Files over this many lines say why at their top, in a comment that starts `Longer than 400 lines:`. */
const MAX_FILE_LINES = 400;
/** Functions over this many lines are split; no exceptions. */
const MAX_FUNCTION_LINES = 80;

function brokenRules(module: SourceModule): string[] {
  const broken: string[] = [];
  for (const target of module.imports) {
    const imported = byFile.get(target)!;
    if (imported.layer === module.layer) {
      if (module.layer === 'adapters' && adapterOf(module.file) !== adapterOf(target)) broken.push(`${module.file} imports another adapter: ${target}`);
      if (module.layer === 'collections' && collectionOf(module.file) !== collectionOf(target)) broken.push(`${module.file} imports another collection: ${target}`);
    } else if (!MAY_IMPORT[module.layer].includes(imported.layer)) {
      broken.push(`${module.file} (${module.layer}) imports ${target} (${imported.layer}), a layer above it`);
    }
  }
  if (module.file.startsWith('src/')) for (const name of module.packages) if (FRAMEWORK_PACKAGES.test(name)) broken.push(`${module.file} imports the framework package ${name}`);
  return broken;
}

function longFunctions(module: SourceModule): string[] {
  const source = ts.createSourceFile(module.file, module.text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > MAX_FUNCTION_LINES) found.push(`${module.file}:${first + 1} (${last - first + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the source tree', () => {
  it('finds the modules of every layer (the test reads what it guards)', () => {
    const layers = new Set(modules.map((module) => module.layer));
    expect([...layers].sort()).toEqual(['adapters', 'background', 'box-server', 'collections', 'core', 'dialects', 'entry', 'stores', 'workspace']);
    expect(modules.length).toBeGreaterThan(200);
    expect(byFile.get('src/workspace/remote/remote-workspace.ts')?.imports).toContain('src/workspace/workspace.ts');
  });

  it('knows a broken rule when it sees one', () => {
    const upward: SourceModule = { file: 'src/workspace/x.ts', layer: layerOf('src/workspace/x.ts'), lines: 1, text: '', imports: ['src/collections/files/index.ts'], packages: ['ai'] };
    expect(brokenRules(upward)).toEqual([
      'src/workspace/x.ts (workspace) imports src/collections/files/index.ts (collections), a layer above it',
      'src/workspace/x.ts imports the framework package ai',
    ]);
    const circle = importCircles([
      { ...upward, imports: ['src/b.ts'], file: 'src/a.ts' },
      { ...upward, imports: ['src/a.ts'], file: 'src/b.ts' },
    ]);
    expect(circle).toEqual([['src/a.ts', 'src/b.ts']]);
  });

  it('points every import down a layer, never into a sibling collection or adapter, and keeps frameworks out of src/', () => {
    expect(modules.flatMap(brokenRules)).toEqual([]);
  });

  it('has no import circle', () => {
    expect(importCircles(modules)).toEqual([]);
  });

  it(`keeps files under ${MAX_FILE_LINES} lines unless their top says why`, () => {
    const long = modules.filter((module) => module.lines > MAX_FILE_LINES && !module.text.split('\n').slice(0, 30).some((line) => line.includes(`Longer than ${MAX_FILE_LINES} lines:`)));
    expect(long.map((module) => `${module.file} (${module.lines} lines)`)).toEqual([]);
  });

  it('gives every folder of src/ and adapters/ a README.md that says what it is', () => {
    const folders = new Set(modules.map((module) => path.posix.dirname(module.file)));
    const bare = [...folders].filter((folder) => folder !== 'src' && !existsSync(path.join(REPOSITORY, folder, 'README.md')));
    expect(bare).toEqual([]);
  });

  it(`keeps functions under ${MAX_FUNCTION_LINES} lines`, () => {
    expect(modules.flatMap(longFunctions)).toEqual([]);
  });
});
