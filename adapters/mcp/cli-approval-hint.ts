import type { ApprovalMode } from '../../src/approval.js';
import { settingThatAllows, type ApprovalSetting } from './approval-policy.js';
import type { McpCliOptions } from './cli-options.js';
import type { RefusedCall } from './server-options.js';

const MODE_EFFECTS: Record<ApprovalMode, string> = {
  ask: 'reading, creating, editing and moving files run unasked',
  'accept-edits': 'file changes other than deleting run unasked',
  plan: 'file changes and commands are refused',
  auto: 'nothing asks',
};

/**
 * What the model is told when the client cannot ask the user about a call: the change to
 * the server's flags that would let this very call run (worked out, not guessed: the same
 * decision is made under each candidate setting), so the advice always works.
 */
export function cliApprovalHint(options: Pick<McpCliOptions, 'mode' | 'askForChanges'>): (call: RefusedCall) => Promise<string> {
  const current: ApprovalSetting = { mode: options.mode, askForChanges: options.askForChanges };
  return async ({ tool, input, reason }) => {
    // A form lets the user allow a call that asks; nothing but the flags allows one the mode refuses.
    const orElicit = reason === 'needs-approval' ? ', or use an MCP client that supports elicitation' : '';
    const setting = await settingThatAllows(tool, input, current);
    if (setting === undefined) return reason === 'needs-approval' ? 'Or use an MCP client that supports elicitation, so the user can be asked.' : '';
    const changes = [
      ...(current.askForChanges && !setting.askForChanges ? ['without `--ask-for-changes`'] : []),
      ...(setting.mode === current.mode ? [] : [`with \`--mode ${setting.mode}\` (${MODE_EFFECTS[setting.mode]})`]),
    ];
    return `To allow it, the user can restart the agent-toolbelt server ${changes.join(' and ')}${orElicit}.`;
  };
}
