/**
 * The workspace the shared test kits (files, shell) put on their temporary folder: a local
 * `Workspace`, or, when {@link REMOTE_SUITE_VARIABLE} is `bwrap`, a remote workspace whose
 * server runs under bubblewrap with the folder mounted at a path that does not exist on the
 * host. `test/remote/*-suites.int.test.ts` set it and import the existing suites, so the same
 * tests run against both kinds.
 */
import { connectWorkspace } from '../../src/workspace/remote/connect.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { bwrapBundleCommand, serverBundle } from './support.js';

/**
 * Set to `bwrap` to make the kits connect to a remote workspace mounted at a path not on the
 * host, or to `bwrap-same-path` to mount it at its own path (the shell suites reach files by
 * `workspace.root` from the host side).
 */
export const REMOTE_SUITE_VARIABLE = 'AGENT_TOOLBELT_TEST_WORKSPACE';

/** True when the kits make remote workspaces in this test process. */
export function remoteSuite(): boolean {
  return process.env[REMOTE_SUITE_VARIABLE] === 'bwrap' || process.env[REMOTE_SUITE_VARIABLE] === 'bwrap-same-path';
}

/** A workspace on `root` (a host folder), of the kind this test process runs against. */
export async function workspaceForTest(root: string): Promise<Workspace> {
  if (!remoteSuite()) return new Workspace(root);
  const samePath = process.env[REMOTE_SUITE_VARIABLE] === 'bwrap-same-path';
  return connectWorkspace({ command: bwrapBundleCommand(root, await serverBundle(), { samePath }) });
}
