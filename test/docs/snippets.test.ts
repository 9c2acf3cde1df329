import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectSnippets, extractSnippets, importedPackages, installedPackages } from './snippets.js';

const repository = path.resolve(import.meta.dirname, '..', '..');

describe('extractSnippets', () => {
  it('finds ts and tsx blocks with their marks and lines, and passes over other languages', () => {
    const page = [
      '# Title',
      '```sh',
      'npm install x',
      '```',
      '```ts',
      "const a = 1;",
      '```',
      '```tsx snippet:run',
      'export const b = <div />;',
      '```',
      '- a list item:',
      '  ```ts snippet:skip',
      '  fragment(',
      '  ```',
    ].join('\n');
    expect(extractSnippets('p.md', page)).toEqual([
      { page: 'p.md', line: 5, language: 'ts', check: 'typecheck', code: 'const a = 1;' },
      { page: 'p.md', line: 8, language: 'tsx', check: 'run', code: 'export const b = <div />;' },
      { page: 'p.md', line: 12, language: 'ts', check: 'skip', code: 'fragment(' },
    ]);
  });

  it('names the packages a snippet imports and the packages a page installs', () => {
    const code = "import { a } from '@scope/pkg/sub';\nimport 'side-effect';\nimport { b } from './local.js';\nimport { c } from 'node:fs';\nconst d = await import('dynamic');";
    expect(importedPackages(code)).toEqual(['@scope/pkg', 'dynamic', 'side-effect']);
    expect(installedPackages('```sh\nnpm install agent-toolbelt zod@^4 @ai-sdk/openai@4   # comment\nnpm i -D @types/node\n```')).toEqual([
      '@ai-sdk/openai',
      '@types/node',
      'agent-toolbelt',
      'zod',
    ]);
  });
});

describe('the documentation', () => {
  const snippets = collectSnippets(repository).filter((snippet) => snippet.check !== 'skip');
  const frontDoor = installedPackages(fs.readFileSync(path.join(repository, 'README.md'), 'utf8'));
  // A web app's own framework is the reader's already; the install lines are for the toolbelt,
  // its peers and the model clients the snippets use.
  const hostFrameworks = new Set(['next', 'react', 'react-dom']);

  it('installs every package its snippets import, on the same page or in the README', () => {
    const missing = snippets.flatMap((snippet) => {
      const installed = new Set([...frontDoor, ...installedPackages(fs.readFileSync(path.join(repository, snippet.page), 'utf8'))]);
      return importedPackages(snippet.code)
        .filter((name) => name !== 'agent-toolbelt' && !hostFrameworks.has(name) && !installed.has(name))
        .map((name) => `${snippet.page}:${snippet.line} imports ${name}, which no \`npm install\` line of the page or the README installs`);
    });
    expect(missing).toEqual([]);
  });

  it('marks few snippets snippet:skip', () => {
    const all = collectSnippets(repository);
    expect(all.filter((snippet) => snippet.check === 'skip').length).toBeLessThanOrEqual(Math.ceil(all.length / 10));
  });
});
