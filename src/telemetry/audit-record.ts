/**
 * The audit trail's record: one per call that changed something or needed approval, made
 * from what `runTool` saw and what the tools already report (the paths in their `data`).
 */
import { createHash } from 'node:crypto';
import type { ToolKind } from '../tool.js';

/** Where a call that did not run was stopped, as `prepareToolCall` says. */
export type RefusedBy = 'input' | 'policy' | 'mode';

/** How a call ended, for the audit record and the `error.type` of its span. */
export type AuditOutcome = 'ok' | 'error' | 'invalid_input' | 'refused' | 'denied' | 'no_approver' | 'cancelled' | 'failed';

/** The approval part of an audit record. */
export interface AuditApproval {
  /**
   * `approve`, `always`, `deny` and `edit` are a person's answers; `preapproved` means the host
   * brought the person's approval with the call (the AI SDK's own flow); `unavailable` that the
   * call needed approval and the host had no way to ask.
   */
  readonly decision: 'approve' | 'always' | 'deny' | 'edit' | 'preapproved' | 'unavailable';
  /** Who decided: the host's `subject`, when it gave one. */
  readonly by?: string;
  /** The person's reason for a denial, as they wrote it. */
  readonly reason?: string;
}

/** One line of the audit trail. Plain JSON. */
export interface AuditRecord {
  /** When the call started, ISO 8601 in UTC. */
  readonly time: string;
  readonly sessionId: string;
  /** The host's `subject` option: whom the call was made for. */
  readonly subject?: string;
  readonly tool: string;
  readonly kind: ToolKind;
  readonly toolCallId: string;
  /** `sha256:` and the hex digest of the input as JSON with sorted keys (the parsed input when it parsed). */
  readonly inputDigest: string;
  readonly approval?: AuditApproval;
  readonly outcome: AuditOutcome;
  /** Paths, relative to the workspace root, that the call wrote, moved or deleted. */
  readonly paths?: readonly string[];
  readonly durationMs: number;
  /** The call's trace and span, when it was traced, to find it in a tracing backend. */
  readonly traceId?: string;
  readonly spanId?: string;
}

/** Receives audit records; awaited before the call's result returns. */
export type AuditListener = (record: AuditRecord) => void | Promise<void>;

/** The kind of a person's answer, read defensively (runTool reports a malformed answer itself). */
export function decisionType(decision: unknown): AuditApproval['decision'] {
  if (typeof decision === 'string') return decision as AuditApproval['decision'];
  const type = (decision as { type?: unknown } | null)?.type;
  return (typeof type === 'string' ? type : 'invalid') as AuditApproval['decision'];
}

/** The reason a person gave for a denial, if any. */
export function denialReason(decision: unknown): string | undefined {
  const { type, reason } = (typeof decision === 'object' && decision !== null ? decision : {}) as { type?: unknown; reason?: unknown };
  return type === 'deny' && typeof reason === 'string' && reason.trim() !== '' ? reason : undefined;
}

/** Kinds whose calls change something, so every one of them is recorded. */
const CHANGING_KINDS: readonly ToolKind[] = ['edit', 'delete', 'move', 'execute'];

/** True when a call of this kind is recorded whether or not it needed approval. */
export function changesSomething(kind: ToolKind): boolean {
  return CHANGING_KINDS.includes(kind);
}

/** `sha256:<hex>` of a value as JSON with its object keys sorted, so equal inputs have equal digests. */
export function inputDigest(input: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(input)).digest('hex')}`;
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    return Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }) ?? 'null';
}

/**
 * The paths a successful call reports it wrote, from its `data`: `path` (create, write, edit,
 * delete), `source` and `destination` (move), `files[].path` and `movedTo` (apply_patch).
 */
export function pathsWritten(kind: ToolKind, data: unknown): string[] {
  if (!changesSomething(kind) || data === null || typeof data !== 'object') return [];
  const record = data as Record<string, unknown>;
  const paths: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === 'string' && !paths.includes(value)) paths.push(value);
  };
  if (record.unchanged !== true) add(record.path);
  add(record.source);
  add(record.destination);
  if (Array.isArray(record.files)) {
    for (const file of record.files as unknown[]) {
      if (file === null || typeof file !== 'object') continue;
      add((file as Record<string, unknown>).path);
      add((file as Record<string, unknown>).movedTo);
    }
  }
  return paths;
}
