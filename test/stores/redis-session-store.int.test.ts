import { sessionStoreContract } from './contract.js';
import { REDIS_MISSING, startRedis } from './servers.js';

sessionStoreContract('Redis', REDIS_MISSING, async () => {
  const server = await startRedis();
  return {
    config: { kind: 'redis', url: server.url },
    namePattern: new RegExp(`Redis session store at redis://127\\.0\\.0\\.1:${server.port} \\(prefix "toolbelt:"\\)`),
    // SHUTDOWN SAVE writes the data out, so the restarted server has what was saved before the outage.
    takeDown: () => server.stop({ save: true }),
    bringUp: () => server.restart(),
    destroy: () => server.destroy(),
  };
});
