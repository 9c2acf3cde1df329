import path from 'node:path';
import type { NextConfig } from 'next';

// Inside the agent-toolbelt repository this app uses the package built into ../../dist (see
// the `paths` in tsconfig.json) and the repository's node_modules, so the build root is the
// repository. A copy of this app elsewhere depends on `agent-toolbelt` from npm instead.
const root = path.resolve(import.meta.dirname, '../..');

const config: NextConfig = {
  turbopack: { root },
  outputFileTracingRoot: root,
  serverExternalPackages: ['agent-toolbelt'],
};

export default config;
