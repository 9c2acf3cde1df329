/** @module agent-toolbelt: safe-by-default tools for AI agents, written once for every framework. */

// First: on a Node.js older than 22 this throws a clear error before a dependency fails obscurely.
import './require-node-version.js';

// Core contract
export { assertSupportedNode, MIN_NODE_MAJOR, unsupportedNodeMessage } from './node-version.js';
export { defineTool, normalizeOutput, TOOL_KINDS, TOOL_NAME_PATTERN } from './tool.js';
export type {
  ApprovalRule,
  ToolCollection,
  ToolContext,
  ToolDefinition,
  ToolEffects,
  ToolImage,
  ToolKind,
  ToolOutput,
  ToolResult,
} from './tool.js';
export { errorResult, formatInputError, prepareToolCall, runTool } from './run-tool.js';
export { CallQueue, withCallOrder } from './call-order.js';
export type { CallTurn } from './call-order.js';
export type { PreparedCall, RunToolOptions, RunToolResult } from './run-tool.js';
export {
  cleanProgressText,
  MAX_PROGRESS_CHARACTERS,
  MAX_PROGRESS_MESSAGE_CHARACTERS,
  PROGRESS_INTERVAL_MS,
  ProgressReporter,
  progressOutput,
  streamProgress,
} from './progress.js';
export type { ProgressListener, ProgressReporterOptions, ProgressStreamItem, ProgressUpdate, ToolProgress } from './progress.js';
export {
  APPROVAL_MODES,
  approvalKeyOf,
  approvalRequest,
  assertApprovalMode,
  assertApprovalOverrides,
  decideApproval,
  denialText,
  noApproverText,
  notAskedText,
  rememberApproval,
} from './approval.js';
export { ApprovalBatches, approvalBatchesOf, mayMeetPolicy } from './approval-batches.js';
export type {
  ApprovalDecision,
  ApprovalMode,
  ApprovalOverrides,
  ApprovalRequest,
  ApprovalVerdict,
  ApproveFunction,
} from './approval.js';
export { createSession, restoreSession, Session } from './session.js';
export type { SessionJSON } from './session.js';
export { collectContext, collectInstructions, collectTools } from './context.js';
export { assertCollections } from './argument-checks.js';
export { describeToolCall, describeToolResult } from './describe-call.js';
export type { ToolOutcome, ToolResultDescription } from './describe-call.js';
export { NO_APPROVER_WARNING_CODE } from './no-approver-warning.js';
export { createJsonlAuditSink } from './telemetry/jsonl-audit-sink.js';
export type { JsonlAuditSink, JsonlAuditSinkOptions } from './telemetry/jsonl-audit-sink.js';
export { AUDIT_FAILED_WARNING_CODE } from './telemetry/audit-failure.js';
export type { AuditApproval, AuditListener, AuditOutcome, AuditRecord } from './telemetry/audit-record.js';
export { useOpenTelemetryApi } from './telemetry/use-open-telemetry.js';
export { assertCallRecordingOptions, recordingOptions } from './telemetry/options.js';
export type { CallRecordingOptions, MeterProviderLike, TelemetryOptions, TracerProviderLike } from './telemetry/options.js';

// Errors
export { ToolError } from './errors/tool-error.js';
export { PathError } from './errors/path-error.js';
export type { PathErrorReason } from './errors/path-error.js';
export { WorkspaceError } from './errors/workspace-error.js';
export { RemoteWorkspaceError } from './errors/remote-workspace-error.js';
export { SessionBusyError } from './errors/session-busy-error.js';
export { SessionLeaseLostError } from './errors/session-lease-lost-error.js';
export { SessionStoreError } from './errors/session-store-error.js';
export { SessionVersionError } from './errors/session-version-error.js';

// Session stores
export { createSessionStore } from './stores/create-session-store.js';
export { createFileSessionStore } from './stores/file-session-store.js';
export type { FileSessionStoreOptions } from './stores/file-session-store.js';
export type { SaveSessionOptions, SessionStore, SessionTurn, WithSessionOptions } from './stores/session-store.js';
export type { LeaseOutcome, ReleaseWatcher, SessionStoreBackend, StoredSession, WriteOptions, WriteOutcome } from './stores/store-backend.js';
export {
  DEFAULT_SESSION_LEASE_MS,
  DEFAULT_SESSION_OPERATION_TIMEOUT_MS,
  DEFAULT_SESSION_WAIT_MS,
  MAX_SESSION_ID_LENGTH,
  MIN_SESSION_LEASE_MS,
} from './stores/store-options.js';
export type { SessionStoreDefaults } from './stores/store-options.js';

// Workspace
export { isInside, MAX_LINK_HOPS, MAX_PATH_LENGTH, MAX_SEGMENT_BYTES } from './workspace/path-jail.js';
export { PRIVATE_FOLDER } from './workspace/private-folder.js';
export { Workspace } from './workspace/workspace.js';
export type { AtomicWriteOptions, ResolvedPath, ResolveOptions, WorkspaceCapabilities, WorkspaceOptions } from './workspace/workspace.js';
export { OnLoopCalls, THREAD_POOL_CALLS } from './workspace/file-system-calls.js';
export type { FileSystemCalls, OnLoopBudget, OnLoopCounts } from './workspace/file-system-calls.js';
export { connectWorkspace, DEFAULT_CONNECT_TIMEOUT_MS } from './workspace/remote/connect.js';
export type { CommandConnectOptions, ConnectWorkspaceOptions, SandboxConnectOptions } from './workspace/remote/connect.js';
export { RemoteWorkspace } from './workspace/remote/remote-workspace.js';
export type { WorkspaceJobs } from './workspace/workspace-jobs.js';
export type { SandboxProcessLike, SandboxSessionLike } from './workspace/remote/sandbox-session.js';
export { PROTOCOL_VERSION as REMOTE_WORKSPACE_PROTOCOL_VERSION } from './workspace/remote/protocol.js';
export type { WireJob as RemoteJob } from './workspace/workspace-jobs.js';
export { withPathLock } from './workspace/path-lock.js';

// Background jobs (issue: shell and jobs)
export { DEFAULT_JOB_MAX_OUTPUT_CHARACTERS, DEFAULT_JOB_MAX_RUNTIME_MS, Job, JobRegistry, withBackground } from './background/index.js';
export type { BackgroundOptions, JobStatus, JobSummary } from './background/index.js';
export type { BackgroundContext } from './tool.js';
export { spawnProcess } from './workspace/spawn-process.js';
export type { ProcessExit, SpawnedProcess, SpawnProcessOptions } from './workspace/spawned-process.js';

// Collections: files
export { createReadOnlyFileTools } from './collections/files/read-tools.js';
export type { ReadToolsOptions } from './collections/files/read-options.js';
export { createFileTools } from './dialects/file-tools.js';
export type { FileToolCollection, FileToolsOptions, SkippedFile, UndoneFile, UndoResult } from './collections/files/index.js';
export { parsePatch } from './collections/files/apply-patch/parse.js';
export type { ChunkLine, PatchChunk, PatchOperation } from './collections/files/apply-patch/parse.js';
export type { PatchedFile } from './collections/files/apply-patch/apply.js';

// Provider-native tool dialects
export { dispatchToolCalls, readToolCallArguments, resolvePendingToolCalls } from './tool-call-dispatch.js';
export type { CallOutcome, DispatchOptions, ModelToolCall, PendingCall } from './tool-call-dispatch.js';
export { nativeInstructions, nativeTools, toolsWithNative } from './dialects/native-tools.js';
export type { NativeFileTools, TextEditorOptions } from './collections/files/index.js';
export type { NativeProvider, NativeTools, NativeToolsOptions } from './dialects/native-tools.js';
export { TEXT_EDITOR_NAME } from './dialects/text-editor.js';
export { BASH_NAME } from './dialects/bash.js';
export { OPENAI_SHELL_NAME } from './dialects/openai-shell.js';
export type { OpenAIShellData, ShellCommandOutput } from './dialects/openai-shell.js';
export type { NativeApplyPatchOperation } from './dialects/openai-apply-patch.js';

// Collections: shell
export { createShellTools } from './collections/shell/index.js';
export type { ShellResultData, ShellToolsOptions } from './collections/shell/index.js';
export {
  DEFAULT_MAX_LINE_CHARACTERS as DEFAULT_SHELL_MAX_LINE_CHARACTERS,
  DEFAULT_MAX_OUTPUT_CHARACTERS as DEFAULT_SHELL_MAX_OUTPUT_CHARACTERS,
  DEFAULT_MAX_SPILL_CHARACTERS as DEFAULT_SHELL_MAX_SPILL_CHARACTERS,
  DEFAULT_MAX_TIMEOUT_MS as DEFAULT_SHELL_MAX_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS as DEFAULT_SHELL_TIMEOUT_MS,
} from './collections/shell/options.js';
export { NON_INTERACTIVE_ENVIRONMENT } from './collections/shell/environment.js';
export { checkCommand, commandApprovalKey, prepareApprovalKey } from './collections/shell/policy.js';

// Collections: task list
export { createTaskListTools, MAX_TASKS_PER_CALL } from './collections/task-list/index.js';
export type { TaskListCollection } from './collections/task-list/index.js';
export { JsonFileTaskListStore } from './collections/task-list/store.js';
export type { LoadedTaskList, TaskListStore } from './collections/task-list/store.js';
export { TASK_STATUSES } from './collections/task-list/task.js';
export type { Task, TaskListSnapshot, TaskStatus } from './collections/task-list/task.js';
export { DEFAULT_MAX_SUBJECT_LENGTH, DEFAULT_MAX_VIEW_CHARACTERS, DEFAULT_MAX_VISIBLE_ITEMS } from './collections/task-list/options.js';
export type { TaskListToolsOptions } from './collections/task-list/options.js';
export { MAX_TASKS } from './collections/task-list/add-tasks.js';

// Collections: date and time
export { createDateTimeTools } from './collections/date-time/index.js';
export type { DateTimeToolsOptions } from './collections/date-time/index.js';

// Collections: ask the user
export { createAskUserTools } from './collections/ask-user/index.js';
export type { AskUserCollection, AskUserFunction, AskUserToolsOptions } from './collections/ask-user/index.js';
export type { AnsweredQuestion, ClientAnswer, UserAnswer } from './collections/ask-user/answers.js';
export type { UserOption, UserQuestion } from './collections/ask-user/questions.js';

// Collections: image
export type { VisionClient, VisionImage, VisionMediaType, VisionRequest } from './collections/image/vision.js';
export { createImageTools } from './collections/image/index.js';
export type { ImageToolsOptions } from './collections/image/options.js';
export { DEFAULT_MAX_IMAGE_BYTES, DEFAULT_MAX_IMAGES_PER_CALL, MAX_VISION_ANSWER_CHARACTERS } from './collections/image/options.js';
export { IMAGE_INSTRUCTIONS, QUERY_IMAGE_DESCRIPTION, VISION_SYSTEM_PROMPT } from './collections/image/descriptions.js';
export { sniffImage } from './collections/image/sniff-image.js';
export type { SniffedFile } from './collections/image/sniff-image.js';
export type { QueryImageData } from './collections/image/query-image.js';
export { imageDataUrl, visionContent } from './collections/image/vision-content.js';
export type { VisionContentPart } from './collections/image/vision-content.js';

// Collections: scratch
export { createScratchTools } from './collections/scratch/index.js';
export type { ScratchToolsOptions } from './collections/scratch/options.js';
export { MAX_NOTE_NAME_LENGTH } from './collections/scratch/note-name.js';
export { MAX_LISTED_NOTES, MAX_NOTE_CHARACTERS } from './collections/scratch/notes.js';
export { MAX_LOG_ENTRY_CHARACTERS, MAX_LOG_READ_CHARACTERS, MAX_LOG_TAIL, SESSION_LOG_FILE } from './collections/scratch/session-log.js';

// Collections: skills
export { createSkillTools } from './collections/skills/index.js';
export type { DiscoveredSkill, LoadedSkillData, SkillCatalog, SkillCollection, SkillToolsOptions, SkillWarning, SkippedSkill } from './collections/skills/index.js';
export { DEFAULT_MAX_SKILL_CHARACTERS, DEFAULT_MAX_SKILL_LISTING_CHARACTERS, DEFAULT_SKILL_FOLDERS } from './collections/skills/options.js';
export { MAX_SKILL_DESCRIPTION_LENGTH, MAX_SKILL_NAME_LENGTH, SKILL_NAME_PATTERN } from './collections/skills/skill-file.js';

// Collections: GitHub
export { createGitHubTools } from './collections/github/index.js';
export type { GitHubToolsOptions } from './collections/github/options.js';
export { DEFAULT_GH_MAX_OUTPUT_CHARACTERS, DEFAULT_GH_TIMEOUT_MS } from './collections/github/options.js';
export { DEFAULT_GH_LIST_LIMIT, MAX_GH_LIST_LIMIT } from './collections/github/read-tools.js';
export { GH_AUTH_EXIT_CODE } from './collections/github/run-gh.js';
