// Builds dist/serve-workspace.mjs, the single-file workspace server that connectWorkspace({ sandbox })
// uploads into a box that has Node.js but not the package. Run by `npm run build` after tsc;
// `node src/workspace/remote/build-server-bundle.mjs [outfile]`.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const repository = new URL('../../../', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', repository), 'utf8'));
const outfile = process.argv[2] ?? new URL('dist/serve-workspace.mjs', repository).pathname;

await build({
  entryPoints: [new URL('src/workspace/remote/serve-main.ts', repository).pathname],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  legalComments: 'eof',
  define: { AGENT_TOOLBELT_VERSION: JSON.stringify(version) },
  // vscode-jsonrpc is CommonJS and requires Node's built-ins: give the ES module a `require`.
  banner: { js: "import { createRequire as agentToolbeltCreateRequire } from 'node:module'; const require = agentToolbeltCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
