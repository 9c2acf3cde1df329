import path from 'node:path';
import type { NextConfig } from 'next';

// Inside the agent-toolbelt repository the tests put a copy of the built package in this
// app's node_modules and the other packages come from the repository's node_modules, so the
// build root is the repository. A copy of this app elsewhere depends on `agent-toolbelt` from
// npm instead. `serverExternalPackages` keeps agent-toolbelt out of the server bundle: Node.js
// loads it as published, with its worker and grammar files beside its modules.
const root = path.resolve(import.meta.dirname, '../..');

const config: NextConfig = {
  turbopack: { root },
  outputFileTracingRoot: root,
  serverExternalPackages: ['agent-toolbelt'],
};

export default config;
