/**
 * An expected failure, thrown for convenience deep inside a tool and turned by `runTool` into
 * an `isError` result whose text is the message. The message is written for the model: it
 * says what went wrong and what to do next. Anything else that a tool throws is a bug.
 */
export class ToolError extends Error {
  override name = 'ToolError';
  /** Structured details for a user interface; passed on as the result's `data`. */
  readonly data?: unknown;

  constructor(message: string, options?: { cause?: unknown; data?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.data = options?.data;
  }
}
