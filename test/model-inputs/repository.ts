/**
 * The small repository every model-inputs case starts from: a TypeScript app with a few
 * folders, a Python file, a Makefile (tabs), YAML, a name with a space, a name stored in NFD
 * (`café.md`, as macOS writes it), text with curly quotes and HTML-looking entities, CRLF.
 * Cases add or replace files with their own `files`.
 */
import type { RepositoryFiles } from './case.js';

/** The repository's folder name, as a model that saw the clone's path may prefix it. */
export const REPOSITORY_NAME = 'shop';

export const REPOSITORY: RepositoryFiles = {
  'package.json': '{\n  "name": "shop",\n  "version": "1.0.0",\n  "scripts": { "test": "node --test" }\n}\n',
  'README.md': '# Shop\n\nA small shop.\n\n## Usage\n\nRun `npm test`.\n',
  'src/app.ts': "import { greet } from './util/strings.js';\n\nexport function main(name: string): string {\n  const message = greet(name);\n  return message;\n}\n",
  'src/util/strings.ts': "export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n\nexport function shout(text: string): string {\n  return text.toUpperCase();\n}\n",
  'src/config.ts': "export const config = {\n  port: 8080,\n  host: 'localhost',\n};\n",
  'src/windows.ts': 'export const lineEnding = "crlf";\r\nexport const other = 1;\r\n',
  'scripts/build.py': 'def build(target):\n    if target:\n        return "built " + target\n    return None\n',
  Makefile: 'build:\n\tnode build.js\n\ntest:\n\tnode --test\n',
  'config/settings.yaml': 'server:\n  port: 8080\n  debug: false\n',
  'docs/guide.md': '# Guide\n\nSay \u201chello\u201d to start.\nUse a &amp; b in the query.\n',
  'docs/caf\u0065\u0301.md': '# Caf\u00e9\n\nStored with a decomposed name.\n',
  'notes/meeting notes.txt': 'Monday: plan\nTuesday: build\n',
  'empty-folder': null,
};
