/**
 * A call that needs approval in a host that gave no way to ask is refused, and the model reads
 * why. The developer would not know: this warns them once per process, naming the options
 * that fix it.
 * @module
 */

/** The `code` of the process warning, for `process.on('warning', …)` filters. */
export const NO_APPROVER_WARNING_CODE = 'AGENT_TOOLBELT_NO_APPROVER';

let warned = false;

/** The developer's warning for a refused call of `toolName`. */
export function noApproverWarningText(toolName: string): string {
  return (
    `agent-toolbelt refused a call to ${toolName}: it needs a person's approval, and no \`approve\` function was given to ask for one (the model was told it was not run). ` +
    `To ask a person, pass \`approve\` to runTool or the \`onApproval\` option to the adapter; ` +
    `to let the tool run unasked, pass \`needsApproval: { ${toolName}: false }\` or \`mode: 'auto'\`. This warning is shown once.`
  );
}

/**
 * Emits {@link noApproverWarningText} as a Node.js process warning (`AgentToolbeltWarning`,
 * code {@link NO_APPROVER_WARNING_CODE}) the first time a call is refused for want of an
 * approver in this process; later refusals stay quiet.
 */
export function warnNoApprover(toolName: string): void {
  if (warned) return;
  warned = true;
  process.emitWarning(noApproverWarningText(toolName), { type: 'AgentToolbeltWarning', code: NO_APPROVER_WARNING_CODE });
}
