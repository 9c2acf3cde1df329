import { SessionStoreError } from '../errors/session-store-error.js';

/**
 * One call to a session store's backend, bounded in time, its failures turned into a
 * `SessionStoreError` naming the store, so a store that stops answering is an error, not a
 * hang. `timeoutMs` defaults to the store's `operationTimeoutMs`.
 */
export type BackendCall = <T>(operation: string, id: string | undefined, run: () => Promise<T>, timeoutMs?: number) => Promise<T>;

/** Makes the {@link BackendCall} of the store `description`; once `isClosed()`, every call fails without reaching the backend. */
export function createBackendCall(description: string, operationTimeoutMs: number, isClosed: () => boolean): BackendCall {
  return async function call<T>(operation: string, id: string | undefined, run: () => Promise<T>, timeoutMs = operationTimeoutMs): Promise<T> {
    if (isClosed()) throw new SessionStoreError(description, operation, id, new Error('the store was closed'));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([run(), timeout]);
    } catch (error) {
      throw error instanceof SessionStoreError ? error : new SessionStoreError(description, operation, id, error);
    } finally {
      clearTimeout(timer);
    }
  };
}
