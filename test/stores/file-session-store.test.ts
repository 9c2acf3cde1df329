import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sessionStoreContract } from './contract.js';

sessionStoreContract('file', undefined, async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'toolbelt-file-store-'));
  const dir = path.join(root, 'sessions');
  return {
    config: { kind: 'file', dir },
    namePattern: new RegExp(`file session store in ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    // Like a disk that went away: the folder is not there while the store is down.
    takeDown: () => rename(dir, `${dir}-down`),
    bringUp: () => rename(`${dir}-down`, dir),
    destroy: () => rm(root, { recursive: true, force: true }),
  };
});
