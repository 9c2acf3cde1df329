/** What a host tells `runTool` about recording its calls: traces and metrics, and the audit trail. */
import type { AuditListener } from './audit-record.js';

/** Anything with OpenTelemetry's `TracerProvider` shape (`getTracer`), so this type needs no OpenTelemetry import. */
export interface TracerProviderLike {
  getTracer(name: string, version?: string): unknown;
}

/** Anything with OpenTelemetry's `MeterProvider` shape (`getMeter`). */
export interface MeterProviderLike {
  getMeter(name: string, version?: string): unknown;
}

/**
 * How calls are traced and measured. Spans and metrics go to the global OpenTelemetry
 * providers (or the ones given here) and cost nothing when there are none. What could carry
 * secrets stays out unless asked for.
 */
export interface TelemetryOptions {
  /** `false` records nothing for these calls. @default true */
  readonly enabled?: boolean;
  /**
   * Put `run_shell`'s command text on its command span (`process.command_args`). Commands can
   * carry tokens and passwords, so it is off unless the host asks. @default false
   */
  readonly recordCommands?: boolean;
  /** Put a person's free-text reason for a denial on the approval event. @default false */
  readonly recordApprovalReasons?: boolean;
  /** Record spans with this provider instead of the global one. */
  readonly tracerProvider?: TracerProviderLike;
  /** Record metrics with this provider instead of the global one. */
  readonly meterProvider?: MeterProviderLike;
}

/** The options of `runTool` (and of every adapter) that record calls. */
export interface CallRecordingOptions {
  /** Traces and metrics by the OpenTelemetry GenAI conventions; see {@link TelemetryOptions}. */
  readonly telemetry?: TelemetryOptions;
  /**
   * Receives one {@link AuditRecord} per call that changed something or needed approval,
   * awaited before the call's result returns. A sink that throws or rejects never breaks the
   * call; its first failure is reported as a process warning.
   */
  readonly onAudit?: AuditListener;
  /**
   * Who the calls are made for, as the host knows them (an OAuth token's subject, the host's
   * user id): recorded in audit records, and as the approver of decisions a person made.
   */
  readonly subject?: string;
}

const TELEMETRY_KEYS = new Set(['enabled', 'recordCommands', 'recordApprovalReasons', 'tracerProvider', 'meterProvider']);

/** Throws a `TypeError` naming the option when the recording options are malformed. */
export function assertCallRecordingOptions(options: CallRecordingOptions, where = 'runTool'): void {
  const { telemetry, onAudit, subject } = options;
  if (onAudit !== undefined && typeof onAudit !== 'function') {
    throw new TypeError(`Expected the \`onAudit\` option of ${where} to be a function of the audit record, such as \`createJsonlAuditSink('audit.jsonl')\`, got ${typeof onAudit}.`);
  }
  if (subject !== undefined && typeof subject !== 'string') {
    throw new TypeError(`Expected the \`subject\` option of ${where} to be a string (the user's id), got ${typeof subject}.`);
  }
  if (telemetry === undefined) return;
  if (typeof telemetry !== 'object' || telemetry === null) {
    throw new TypeError(`Expected the \`telemetry\` option of ${where} to be an object such as \`{ recordCommands: false }\`, got ${telemetry === null ? 'null' : typeof telemetry}.`);
  }
  for (const key of Object.keys(telemetry)) {
    if (!TELEMETRY_KEYS.has(key)) throw new TypeError(`Unknown key \`${key}\` in the \`telemetry\` option of ${where}; it takes ${[...TELEMETRY_KEYS].join(', ')}.`);
  }
}

/** The recording options among an adapter's options, for it to hand to every `runTool`. */
export function recordingOptions(options: CallRecordingOptions): CallRecordingOptions {
  const { telemetry, onAudit, subject } = options;
  return { ...(telemetry === undefined ? {} : { telemetry }), ...(onAudit === undefined ? {} : { onAudit }), ...(subject === undefined ? {} : { subject }) };
}
