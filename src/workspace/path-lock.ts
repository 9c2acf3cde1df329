const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `task` when every earlier task for the same key has finished, so concurrent edits of
 * one file land one after another instead of overwriting each other. Keys are canonical
 * absolute paths; the lock holds within this process.
 */
export async function withPathLock<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const current = previous.then(task, task);
  const settled = current.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  try {
    return await current;
  } finally {
    if (queues.get(key) === settled) queues.delete(key);
  }
}
