import { readFileSync } from 'node:fs';

let version: string | undefined;

/**
 * The version in agent-toolbelt's own package.json, read once: the source tree and dist/ sit
 * at different depths below it. `0.0.0` when it cannot be found.
 */
export function packageVersion(): string {
  if (version !== undefined) return version;
  for (const candidate of ['../../package.json', '../../../package.json']) {
    try {
      const json = JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (json.name === 'agent-toolbelt' && json.version) return (version = json.version);
    } catch {
      // Not at this depth: the file runs from the source tree or from dist/.
    }
  }
  return (version = '0.0.0');
}
