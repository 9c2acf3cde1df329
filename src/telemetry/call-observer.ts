/**
 * What `runTool` tells about one call, fed to its trace and its audit record: the verdict, the
 * approval asked and decided, and the result. Made only when something records, so a host
 * without OpenTelemetry and without `onAudit` pays one function call per call.
 */
import type { ApprovalDecision, ApprovalRequest } from '../approval.js';
import type { Session } from '../session.js';
import type { ToolDefinition, ToolKind, ToolResult } from '../tool.js';
import { reportAuditFailure } from './audit-failure.js';
import { changesSomething, decisionType, denialReason, inputDigest, pathsWritten, type AuditApproval, type AuditRecord, type AuditOutcome, type RefusedBy } from './audit-record.js';
import { CallTrace } from './call-trace.js';
import { openTelemetryApi, type OpenTelemetryApi } from './open-telemetry.js';
import type { CallRecordingOptions } from './options.js';

/** The parts of `runTool`'s options the observer reads. */
export interface ObservedCallOptions extends CallRecordingOptions {
  readonly session: Session;
  readonly toolCallId?: string;
  readonly signal?: AbortSignal;
  readonly approved?: boolean;
}

// Loaded while the host starts, not during its first call: importing the API's modules is
// work the event loop would otherwise do in the middle of that call (a 100 MB command's
// output measured 90-130 ms of event-loop delay with the import inside it, 30-80 without).
void openTelemetryApi();

/** The observer of a call, or `undefined` when nothing records (a promise only until the OpenTelemetry API has loaded once). */
export function observeCall(tool: ToolDefinition<any>, rawInput: unknown, options: ObservedCallOptions): CallObserver | undefined | Promise<CallObserver | undefined> {
  const api = options.telemetry?.enabled === false ? null : openTelemetryApi();
  if (api instanceof Promise) return api.then((loaded) => observer(tool, rawInput, options, loaded));
  return observer(tool, rawInput, options, api);
}

function observer(tool: ToolDefinition<any>, rawInput: unknown, options: ObservedCallOptions, api: OpenTelemetryApi | null): CallObserver | undefined {
  const recording = api !== null && (options.telemetry?.tracerProvider !== undefined || options.telemetry?.meterProvider !== undefined || !nothingRegistered(api));
  if (!recording && options.onAudit === undefined) return undefined;
  return new CallObserver(tool, rawInput, options, recording ? api : undefined);
}

/**
 * True while the host has registered no tracer and no meter provider: the API then hands out
 * its no-op providers, and a call need not make a span nobody records. Read from the API's own
 * classes; when they cannot be told apart, the call is traced as usual (correct, only slower).
 */
function nothingRegistered(api: OpenTelemetryApi): boolean {
  const delegate = (api.trace.getTracerProvider() as { getDelegate?: () => object }).getDelegate?.();
  return delegate?.constructor.name === 'NoopTracerProvider' && api.metrics.getMeterProvider().constructor.name === 'NoopMeterProvider';
}

/** One call, observed from its start to its result. */
export class CallObserver {
  readonly #tool: ToolDefinition<any>;
  readonly #options: ObservedCallOptions;
  readonly #trace: CallTrace | undefined;
  readonly #startedAt = new Date();
  readonly #started = performance.now();
  #input: unknown;
  #parsed = false;
  #outcome: AuditOutcome | undefined;
  #approval: AuditApproval | undefined;

  constructor(tool: ToolDefinition<any>, rawInput: unknown, options: ObservedCallOptions, api: OpenTelemetryApi | undefined) {
    this.#tool = tool;
    this.#options = options;
    this.#input = rawInput;
    this.#trace = api === undefined ? undefined : CallTrace.start(api, tool, { toolCallId: options.toolCallId ?? '', sessionId: options.session.id, options: options.telemetry ?? {} });
    if (options.approved === true) this.#approval = { decision: 'preapproved', ...this.#by() };
  }

  /** Runs the call inside its span. */
  run<T>(work: () => T): T {
    return this.#trace === undefined ? work() : this.#trace.run(work);
  }

  /** The call was refused before it ran. */
  refused(refusedBy: RefusedBy): void {
    this.#outcome = refusedBy === 'input' ? 'invalid_input' : 'refused';
    this.#trace?.verdict('refused', refusedBy);
  }

  /** The call's input parsed and passed the policy: it runs, or asks first. */
  ready(input: Record<string, unknown>, asks: boolean): void {
    this.#input = input;
    this.#parsed = true;
    this.#trace?.verdict(asks ? 'ask' : 'run');
  }

  /** A person is asked. */
  asked(request: ApprovalRequest): void {
    this.#trace?.asked(request);
  }

  /** The answer, or `unavailable` when the host could not ask. */
  decided(decision: ApprovalDecision | 'unavailable'): void {
    this.#trace?.decided(decision);
    const type = decisionType(decision);
    const reason = denialReason(decision);
    this.#approval = { decision: type, ...(type === 'unavailable' ? {} : this.#by()), ...(reason === undefined ? {} : { reason }) };
    if (type === 'deny') this.#outcome = 'denied';
    if (type === 'unavailable') this.#outcome = 'no_approver';
  }

  /** Ends the span, records the metrics and writes the audit record, then hands the result back. */
  async finish<R extends ToolResult & { readonly error?: unknown }>(result: R): Promise<R> {
    const durationMs = performance.now() - this.#started;
    const outcome = this.#outcome ?? outcomeOf(result, this.#options.signal);
    const data = result.data as { jobId?: unknown } | undefined;
    const jobId = typeof data?.jobId === 'string' ? data.jobId : undefined;
    this.#trace?.end(outcome, durationMs, { ...(jobId === undefined ? {} : { jobId }), ...(outcome === 'failed' ? { error: result.error } : {}) });
    const onAudit = this.#options.onAudit;
    if (onAudit === undefined) return result;
    const kind = this.#kind();
    if (!changesSomething(kind) && this.#approval === undefined) return result;
    try {
      await onAudit(this.#record(kind, outcome, durationMs, outcome === 'ok' ? pathsWritten(kind, result.data) : []));
    } catch (error) {
      reportAuditFailure(onAudit, error);
    }
    return result;
  }

  #record(kind: ToolKind, outcome: AuditOutcome, durationMs: number, paths: string[]): AuditRecord {
    const { subject, session, toolCallId } = this.#options;
    const ids = this.#trace?.ids;
    return {
      time: this.#startedAt.toISOString(),
      sessionId: session.id,
      ...(subject === undefined ? {} : { subject }),
      tool: this.#tool.name,
      kind,
      toolCallId: toolCallId ?? '',
      inputDigest: inputDigest(this.#input),
      ...(this.#approval === undefined ? {} : { approval: this.#approval }),
      outcome,
      ...(paths.length === 0 ? {} : { paths }),
      durationMs: Math.round(durationMs * 1000) / 1000,
      ...(ids === undefined ? {} : ids),
    };
  }

  #kind(): ToolKind {
    if (!this.#parsed || this.#tool.kindOf === undefined) return this.#tool.kind;
    try {
      return this.#tool.kindOf(this.#input as Record<string, unknown>);
    } catch {
      return this.#tool.kind;
    }
  }

  #by(): { by?: string } {
    return this.#options.subject === undefined ? {} : { by: this.#options.subject };
  }
}

function outcomeOf(result: ToolResult & { readonly error?: unknown }, signal: AbortSignal | undefined): AuditOutcome {
  if (!result.isError) return 'ok';
  if (signal?.aborted === true) return 'cancelled';
  return result.error === undefined ? 'error' : 'failed';
}
