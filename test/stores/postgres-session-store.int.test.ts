import { sessionStoreContract } from './contract.js';
import { POSTGRES_MISSING, startPostgres } from './servers.js';

sessionStoreContract('Postgres', POSTGRES_MISSING, async () => {
  const server = await startPostgres();
  return {
    config: { kind: 'postgres', connectionString: server.connectionString },
    namePattern: new RegExp(`Postgres session store \\(table toolbelt_sessions at 127\\.0\\.0\\.1:${server.port}/postgres\\)`),
    takeDown: () => server.stop(),
    bringUp: () => server.restart(),
    destroy: () => server.destroy(),
  };
});
