/**
 * Telling the file system's refusals (a file gone, a folder that cannot be read) from every
 * other failure, so a tool can pass over the first and still stop on the second.
 */

/** The `code` of a Node.js system error, if any. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

/**
 * For a `catch` that passes over what the file system refuses (a file gone, a folder that
 * cannot be read): returns quietly for an error with a system `code`, and throws anything
 * else again, so a lost remote workspace or a bug is not taken for one unreadable file.
 */
export function rethrowUnlessFileSystemError(error: unknown): void {
  if (errorCode(error) === undefined) throw error;
}
