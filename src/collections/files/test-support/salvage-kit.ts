import { makeWriteKit, type WriteKit } from './write-kit.js';

/** What `src/app.ts` holds in a {@link makeSalvageKit} workspace. */
export const APP_TEXT = 'one\ntwo\n';

/**
 * The workspace the path-salvage suites (paths/look-up.test.ts, paths/new-path.test.ts) start
 * from: a {@link WriteKit} with one file, `src/app.ts` ({@link APP_TEXT}), for the paths they
 * send to find or to miss.
 */
export async function makeSalvageKit(): Promise<WriteKit> {
  const kit = await makeWriteKit();
  await kit.put('src/app.ts', APP_TEXT);
  return kit;
}
