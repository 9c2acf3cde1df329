/**
 * The Node.js version agent-toolbelt runs on, checked before anything else is loaded: on an
 * older Node a dependency fails deep inside its own code (`TEXT_ENCODINGS.union is not a
 * function` from execa on Node 20), which says nothing about the fix.
 * @module
 */

/** The oldest Node.js major version agent-toolbelt supports (`engines.node` in package.json). */
export const MIN_NODE_MAJOR = 22;

/**
 * The message for a Node.js that is too old, or `undefined` when this one is new enough.
 * @param version - a `process.version` string such as `v20.20.2`; default, this process's
 */
export function unsupportedNodeMessage(version: string = process.version): string | undefined {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (!Number.isInteger(major) || major >= MIN_NODE_MAJOR) return undefined;
  return (
    `agent-toolbelt needs Node.js ${MIN_NODE_MAJOR} or newer; this is ${version.startsWith('v') ? version : `v${version}`}. ` +
    `Install Node.js ${MIN_NODE_MAJOR} (https://nodejs.org/en/download, or \`nvm install ${MIN_NODE_MAJOR}\`) and run again.`
  );
}

/** Throws an `Error` with {@link unsupportedNodeMessage} when this Node.js is too old. */
export function assertSupportedNode(version: string = process.version): void {
  const message = unsupportedNodeMessage(version);
  if (message) throw new Error(message);
}
