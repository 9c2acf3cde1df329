/** @module agent-toolbelt: safe-by-default tools for AI agents, written once for every framework. */

// Core contract
export { defineTool, normalizeOutput, TOOL_KINDS, TOOL_NAME_PATTERN } from './tool.js';
export type {
  ApprovalRule,
  ToolCollection,
  ToolContext,
  ToolDefinition,
  ToolImage,
  ToolKind,
  ToolOutput,
  ToolResult,
} from './tool.js';
export { errorResult, formatInputError, prepareToolCall, runTool } from './run-tool.js';
export type { PreparedCall, RunToolOptions, RunToolResult } from './run-tool.js';
export {
  APPROVAL_MODES,
  approvalKeyOf,
  approvalRequest,
  assertApprovalMode,
  decideApproval,
  denialText,
  noApproverText,
  rememberApproval,
} from './approval.js';
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

// Errors
export { ToolError } from './errors/tool-error.js';
export { PathError } from './errors/path-error.js';
export type { PathErrorReason } from './errors/path-error.js';
export { WorkspaceError } from './errors/workspace-error.js';

// Workspace
export { isInside, MAX_LINK_HOPS, MAX_PATH_LENGTH, MAX_SEGMENT_BYTES, PRIVATE_FOLDER, Workspace } from './workspace/workspace.js';
export type { AtomicWriteOptions, ResolvedPath, ResolveOptions } from './workspace/workspace.js';
export { withPathLock } from './workspace/path-lock.js';

// Background jobs (issue: shell and jobs)

// Collections: files
export { createReadOnlyFileTools } from './collections/files/read-tools.js';
export type { ReadToolsOptions } from './collections/files/read-tools.js';
export { createFileTools } from './collections/files/index.js';
export type { FileToolCollection, FileToolsOptions, SkippedFile, UndoneFile, UndoResult } from './collections/files/index.js';

// Collections: shell

// Collections: task list

// Collections: date and time

// Collections: ask the user

// Collections: image
export type { VisionClient, VisionImage, VisionMediaType, VisionRequest } from './collections/image/vision.js';
export { createImageTools } from './collections/image/index.js';
export type { ImageToolsOptions } from './collections/image/options.js';
export { DEFAULT_MAX_IMAGE_BYTES, DEFAULT_MAX_IMAGES_PER_CALL, MAX_VISION_ANSWER_CHARACTERS } from './collections/image/options.js';
export { IMAGE_INSTRUCTIONS, QUERY_IMAGE_DESCRIPTION, VISION_SYSTEM_PROMPT } from './collections/image/descriptions.js';
export { sniffImage } from './collections/image/sniff-image.js';
export type { SniffedFile } from './collections/image/sniff-image.js';
export type { QueryImageData } from './collections/image/query-image.js';

// Collections: scratch
export { createScratchTools } from './collections/scratch/index.js';
export type { ScratchToolsOptions } from './collections/scratch/options.js';
export { MAX_NOTE_NAME_LENGTH } from './collections/scratch/note-name.js';
export { MAX_LISTED_NOTES, MAX_NOTE_CHARACTERS } from './collections/scratch/notes.js';
export { MAX_LOG_ENTRY_CHARACTERS, MAX_LOG_READ_CHARACTERS, MAX_LOG_TAIL, SESSION_LOG_FILE } from './collections/scratch/session-log.js';

// Collections: GitHub
