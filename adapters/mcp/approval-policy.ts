import { decideApproval, type ApprovalMode, type ApprovalOverrides } from '../../src/approval.js';
import { createSession } from '../../src/session.js';
import type { ToolDefinition, ToolKind } from '../../src/tool.js';

/** The kinds `askForChanges` asks about: the ones `plan` mode refuses (file changes and commands). */
export const CHANGE_KINDS: readonly ToolKind[] = ['edit', 'delete', 'move', 'execute'];

/** How a server decides which calls ask: the approval mode and the "ask for every change" switch. */
export interface ApprovalSetting {
  readonly mode: ApprovalMode;
  readonly askForChanges: boolean;
}

/**
 * The per-tool overrides a server runs with: with `askForChanges`, every tool of a
 * {@link CHANGE_KINDS} kind asks; the host's own overrides win over that.
 */
export function effectiveOverrides(
  tools: Iterable<ToolDefinition<any>>,
  askForChanges: boolean,
  overrides: ApprovalOverrides | undefined,
): ApprovalOverrides | undefined {
  if (!askForChanges) return overrides;
  const asking: Record<string, true> = {};
  for (const tool of tools) if (CHANGE_KINDS.includes(tool.kind)) asking[tool.name] = true;
  return { ...asking, ...overrides };
}

/** The modes from the one that lets the least run unasked to the one that lets everything run. */
const MODES_BY_PERMISSIVENESS: readonly ApprovalMode[] = ['plan', 'ask', 'accept-edits', 'auto'];

/**
 * The first setting, from the least permissive, under which this call would run without
 * asking: the same mode without `askForChanges`, then each more permissive mode. A
 * refusal names it, so the advice always works. `undefined` when no setting would (the
 * host's overrides are not the server's flags to change).
 */
export async function settingThatAllows(
  tool: ToolDefinition<any>,
  input: Record<string, unknown>,
  current: ApprovalSetting,
  overrides?: ApprovalOverrides,
): Promise<ApprovalSetting | undefined> {
  const candidates: ApprovalSetting[] = [
    ...(current.askForChanges ? [{ mode: current.mode, askForChanges: false }] : []),
    ...MODES_BY_PERMISSIVENESS.slice(MODES_BY_PERMISSIVENESS.indexOf(current.mode) + 1).map((mode) => ({ mode, askForChanges: false })),
  ];
  const session = createSession();
  for (const candidate of candidates) {
    const verdict = await decideApproval(tool, input, { session, mode: candidate.mode, overrides: effectiveOverrides([tool], candidate.askForChanges, overrides) });
    if (verdict.type === 'run') return candidate;
  }
  return undefined;
}
