/**
 * Finds the TypeScript snippets of the documentation, so a test can type-check and run them
 * as a user would paste them (see `snippets.int.test.ts`).
 *
 * A snippet is a fenced block whose info string starts with `ts` or `tsx`. Words after the
 * language mark what the check does with it:
 * - none: type-checked under `strict` against the packed package;
 * - `snippet:run`: type-checked, then run with Node.js (it must need no network and no key);
 * - `snippet:skip`: left out (a fragment that cannot stand alone; use sparingly).
 * @module
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** One fenced TypeScript block of a Markdown page. */
export interface Snippet {
  /** The page, relative to the repository root (`adapters/openai/README.md`). */
  page: string;
  /** The 1-based line of the opening fence. */
  line: number;
  language: 'ts' | 'tsx';
  /** What the check does with it: type-check, type-check and run, or leave it out. */
  check: 'typecheck' | 'run' | 'skip';
  code: string;
}

/** Folders whose pages are documentation; the top README.md is read too. */
const documentedFolders = ['src', 'adapters', 'examples', 'test'];
const skippedFolders = new Set(['node_modules', 'dist', '.next', '.git', '.toolbelt']);

/** Every README.md and topic page (`*.md` beside the code) the snippet check reads, sorted. */
export function findPages(root: string): string[] {
  const pages: string[] = [];
  if (fs.existsSync(path.join(root, 'README.md'))) pages.push('README.md');
  const walk = (folder: string): void => {
    for (const entry of fs.readdirSync(path.join(root, folder), { withFileTypes: true })) {
      const relative = path.posix.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!skippedFolders.has(entry.name) && !entry.name.startsWith('.')) walk(relative);
      } else if (entry.isFile() && entry.name.endsWith('.md')) {
        pages.push(relative);
      }
    }
  };
  for (const folder of documentedFolders) if (fs.existsSync(path.join(root, folder))) walk(folder);
  return pages.sort();
}

const fence = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)(.*)$/;

/** The TypeScript snippets of one page's Markdown text, in page order. */
export function extractSnippets(page: string, markdown: string): Snippet[] {
  const snippets: Snippet[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const opening = fence.exec(lines[index]!);
    if (!opening) continue;
    const [, indent, marker, language, rest] = opening as unknown as [string, string, string, string, string];
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length; end++) {
      const line = lines[end]!;
      if (line.trim().startsWith(marker[0]!.repeat(marker.length)) && line.trim().replace(/[`~]/g, '') === '') break;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    if (language === 'ts' || language === 'tsx' || language === 'typescript') {
      const words = rest.trim().split(/\s+/);
      const check = words.includes('snippet:skip') ? 'skip' : words.includes('snippet:run') ? 'run' : 'typecheck';
      snippets.push({ page, line: index + 1, language: language === 'tsx' ? 'tsx' : 'ts', check, code: body.join('\n') });
    }
    index = end;
  }
  return snippets;
}

/** Every snippet of every page under `root`. */
export function collectSnippets(root: string): Snippet[] {
  return findPages(root).flatMap((page) => extractSnippets(page, fs.readFileSync(path.join(root, page), 'utf8')));
}

/** The npm package a bare import specifier names (`@scope/name/sub` → `@scope/name`), or undefined for `node:` and relative ones. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The packages a snippet imports (static `import … from`, `import '…'`, `import('…')`), deduplicated. */
export function importedPackages(code: string): string[] {
  const found = new Set<string>();
  const patterns = [/\bfrom\s+['"]([^'"]+)['"]/g, /\bimport\s+['"]([^'"]+)['"]/g, /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const pattern of patterns) {
    for (const match of code.matchAll(pattern)) {
      const name = packageOf(match[1]!);
      if (name) found.add(name);
    }
  }
  return [...found].sort();
}

/** The packages named in `npm install …` lines of a page's shell blocks. */
export function installedPackages(markdown: string): string[] {
  const found = new Set<string>();
  for (const match of markdown.matchAll(/npm (?:install|i|add)\s+([^\n#]*)/g)) {
    for (const word of match[1]!.replace(/`.*$/, '').trim().split(/\s+/)) {
      if (!word || word.startsWith('-')) continue;
      const name = word.startsWith('@') ? word.replace(/^(@[^@/]+\/[^@]+)(@.*)?$/, '$1') : word.replace(/@.*$/, '');
      found.add(name);
    }
  }
  return [...found].sort();
}
