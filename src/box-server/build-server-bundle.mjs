// Builds dist/serve-workspace.mjs, the single-file workspace server that connectWorkspace({ sandbox })
// uploads into a box that has Node.js but not the package. Run by `npm run build` after tsc;
// `node src/box-server/build-server-bundle.mjs [outfile]`.
// The search engine's worker modules are bundled too, as text inside the server (see
// bundled-worker-script.ts), so the one file is all the box needs.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const repository = new URL('../../', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', repository), 'utf8'));
const outfile = process.argv[2] ?? new URL('dist/serve-workspace.mjs', repository).pathname;
const source = (file) => new URL(file, repository).pathname;

/** Worker modules, each bundled before the ones that start it. */
const WORKERS = ['search-walker-thread', 'ripgrep-host', 'search-worker-thread'];

const swapWorkerScript = {
  name: 'bundled-worker-script',
  setup(builder) {
    builder.onResolve({ filter: /\/worker-script\.js$/ }, () => ({ path: source('src/box-server/bundled-worker-script.ts') }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  legalComments: 'eof',
  plugins: [swapWorkerScript],
  // The optional peer stays optional in the box: imported when installed there, else no spans.
  external: ['@opentelemetry/api'],
  // vscode-jsonrpc is CommonJS and requires Node's built-ins: give the ES module a `require`.
  banner: { js: "import { createRequire as agentToolbeltCreateRequire } from 'node:module'; const require = agentToolbeltCreateRequire(import.meta.url);" },
  logLevel: 'warning',
};

const workers = {};
for (const name of WORKERS) {
  const result = await build({
    ...common,
    entryPoints: [source(`src/collections/files/search/${name}.ts`)],
    write: false,
    define: { AGENT_TOOLBELT_WORKERS: JSON.stringify(workers) },
  });
  workers[name] = result.outputFiles[0].text;
}

await build({
  ...common,
  entryPoints: [source('src/box-server/serve-main.ts')],
  outfile,
  define: { AGENT_TOOLBELT_VERSION: JSON.stringify(version), AGENT_TOOLBELT_WORKERS: JSON.stringify(workers) },
});
