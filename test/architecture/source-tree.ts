/**
 * The source tree as its imports describe it: every module of `src/` and `adapters/` (tests
 * and test support left out), what each imports, and which layer each belongs to. The layer
 * test reads the architecture from here, so a rule broken anywhere in the tree is found.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));

/** The layers, lowest first; a module may import its own layer and those listed as below it. */
export type Layer = 'core' | 'stores' | 'workspace' | 'background' | 'collections' | 'dialects' | 'box-server' | 'adapters' | 'entry';

/** What each layer may import (besides itself). */
export const MAY_IMPORT: Readonly<Record<Layer, readonly Layer[]>> = {
  core: [],
  stores: ['core'],
  workspace: ['core'],
  // Background jobs run any tool, and reach a box's jobs through the workspace's contract.
  background: ['core', 'workspace'],
  collections: ['core', 'workspace', 'background'],
  dialects: ['core', 'workspace', 'background', 'collections'],
  'box-server': ['core', 'workspace', 'background', 'collections', 'dialects'],
  // The package's command line (`adapters/mcp/cli.ts`) also starts the box server.
  adapters: ['core', 'stores', 'workspace', 'background', 'collections', 'dialects', 'box-server', 'entry'],
  entry: ['core', 'stores', 'workspace', 'background', 'collections', 'dialects'],
};

/** Packages `src/` never imports: frameworks and database clients belong to the adapters. */
export const FRAMEWORK_PACKAGES = /^(ai|ai\/.*|@ai-sdk\/.*|@langchain\/.*|langchain(\/.*)?|openai(\/.*)?|@anthropic-ai\/.*|@modelcontextprotocol\/.*|pg|redis|@redis\/.*)$/;

export interface SourceModule {
  /** Repository-relative, with `/`. */
  readonly file: string;
  readonly layer: Layer;
  readonly lines: number;
  readonly text: string;
  /** Repository-relative modules this one imports (type-only imports too). */
  readonly imports: readonly string[];
  /** Bare package specifiers it imports. */
  readonly packages: readonly string[];
}

/** The layer of a repository-relative module path. */
export function layerOf(file: string): Layer {
  if (file.startsWith('adapters/')) return 'adapters';
  if (file === 'src/index.ts') return 'entry';
  const [, top] = file.split('/');
  switch (top) {
    case 'stores':
      return 'stores';
    case 'workspace':
      return 'workspace';
    case 'background':
      return 'background';
    case 'collections':
      return 'collections';
    case 'dialects':
      return 'dialects';
    case 'box-server':
      return 'box-server';
    // The core: src/*.ts and its rooms (errors/, model-inputs/, telemetry/, which runTool calls
    // and the collections, the remote workspace and the box server use for their spans).
    default:
      return 'core';
  }
}

/** The adapter folder of a module (`adapters/mcp/http.ts` → `mcp`), or undefined. */
export function adapterOf(file: string): string | undefined {
  return file.startsWith('adapters/') ? file.split('/')[1] : undefined;
}

/** The collection folder of a module (`src/collections/files/search/walk.ts` → `files`), or undefined. */
export function collectionOf(file: string): string | undefined {
  return file.startsWith('src/collections/') ? file.split('/')[2] : undefined;
}

function isTestCode(file: string): boolean {
  return /\.test(-d)?\.ts$/.test(file) || file.includes('/test-support/');
}

function listModules(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(REPOSITORY, folder), { withFileTypes: true })) {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory()) found.push(...listModules(relative));
    else if (/\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !isTestCode(relative)) found.push(relative);
  }
  return found;
}

/** `./walk.js` from `src/collections/files/search/x.ts` → `src/collections/files/search/walk.ts`. */
function resolveSpecifier(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  for (const candidate of [joined.replace(/\.js$/, '.ts'), joined, `${joined}.ts`, `${joined}/index.ts`]) if (known.has(candidate)) return candidate;
  return undefined;
}

/** Every non-test module of `src/` and `adapters/`, with its imports. */
export function readSourceTree(): SourceModule[] {
  const files = [...listModules('src'), ...listModules('adapters')];
  const known = new Set(files);
  return files.map((file) => {
    const text = readFileSync(path.join(REPOSITORY, file), 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const imports: string[] = [];
    const packages: string[] = [];
    for (const { fileName } of importedFiles) {
      if (fileName.startsWith('.')) {
        const target = resolveSpecifier(file, fileName, known);
        if (target !== undefined) imports.push(target);
      } else if (!fileName.startsWith('node:')) packages.push(fileName);
    }
    return { file, layer: layerOf(file), lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), text, imports, packages };
  });
}

/** The import circles (strongly connected components of two or more modules), each sorted. */
export function importCircles(modules: readonly SourceModule[]): string[][] {
  const edges = new Map(modules.map((module) => [module.file, module.imports]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let counter = 0;
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) circles.push(component.sort());
  };
  for (const module of modules) if (!index.has(module.file)) visit(module.file);
  return circles;
}
