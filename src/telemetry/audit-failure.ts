/**
 * A failing audit sink never breaks a call; its developer is told once per sink, as a
 * Node.js process warning (or through the sink's own `onError`).
 */

/** The `code` of the process warning, for `process.on('warning', …)` filters. */
export const AUDIT_FAILED_WARNING_CODE = 'AGENT_TOOLBELT_AUDIT_FAILED';

const reported = new WeakSet<object>();

/** Reports the first failure of `sink`; later ones stay quiet. */
export function reportAuditFailure(sink: object, error: unknown, onError?: (error: unknown) => void): void {
  if (reported.has(sink)) return;
  reported.add(sink);
  if (onError !== undefined) {
    try {
      onError(error);
      return;
    } catch {
      // A failing error handler falls back to the warning.
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  process.emitWarning(
    `agent-toolbelt could not write an audit record: ${message}. The tool call went on; later failures of this audit sink are not reported.`,
    { type: 'AgentToolbeltWarning', code: AUDIT_FAILED_WARNING_CODE },
  );
}
