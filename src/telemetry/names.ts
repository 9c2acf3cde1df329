/**
 * The attribute, span, event and metric names this package records: the OpenTelemetry GenAI
 * semantic conventions' where they define one (`gen_ai.*`, `error.type`, `process.*`), and
 * `agent_toolbelt.*` for what they leave open (the policy, approvals, background jobs).
 */
export const INSTRUMENTATION_NAME = 'agent-toolbelt';

export const OPERATION_NAME = 'gen_ai.operation.name';
export const EXECUTE_TOOL = 'execute_tool';
export const TOOL_NAME = 'gen_ai.tool.name';
export const TOOL_CALL_ID = 'gen_ai.tool.call.id';
export const TOOL_TYPE = 'gen_ai.tool.type';
export const TOOL_DESCRIPTION = 'gen_ai.tool.description';
export const CONVERSATION_ID = 'gen_ai.conversation.id';
export const ERROR_TYPE = 'error.type';

export const SKILL_NAME = 'gen_ai.skill.name';
export const PROCESS_COMMAND = 'process.command';
export const PROCESS_COMMAND_ARGS = 'process.command_args';
export const PROCESS_EXIT_CODE = 'process.exit.code';

export const TOOL_KIND = 'agent_toolbelt.tool.kind';
export const POLICY_EVENT = 'agent_toolbelt.policy';
export const POLICY_VERDICT = 'agent_toolbelt.policy.verdict';
export const REFUSED_BY = 'agent_toolbelt.refused_by';
export const APPROVAL_ASKED_EVENT = 'agent_toolbelt.approval.asked';
export const APPROVAL_DECIDED_EVENT = 'agent_toolbelt.approval.decided';
export const APPROVAL_DECISION = 'agent_toolbelt.approval.decision';
export const APPROVAL_REASON = 'agent_toolbelt.approval.reason';
export const APPROVAL_DESCRIPTION = 'agent_toolbelt.approval.description';
export const BACKGROUND_EVENT = 'agent_toolbelt.background.started';
export const JOB_ID = 'agent_toolbelt.job.id';
export const CANCELLED_EVENT = 'agent_toolbelt.cancelled';
export const EXCEPTION_EVENT = 'gen_ai.execute_tool.exception';

export const COMMAND_STATUS = 'agent_toolbelt.command.status';
export const COMMAND_SIGNAL = 'agent_toolbelt.command.signal';
export const COMMAND_OUTPUT_CHARACTERS = 'agent_toolbelt.command.output_characters';

export const DURATION_METRIC = 'gen_ai.execute_tool.duration';
export const REFUSALS_METRIC = 'agent_toolbelt.tool.refusals';
export const APPROVALS_ASKED_METRIC = 'agent_toolbelt.approval.requests';
export const APPROVALS_DENIED_METRIC = 'agent_toolbelt.approval.denials';

/** The GenAI conventions' histogram buckets for durations in seconds. */
export const DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
export const SKILL_FOLDER = 'agent_toolbelt.skill.folder';
