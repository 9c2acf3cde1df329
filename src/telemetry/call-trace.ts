/**
 * One call's `execute_tool {name}` span (kind INTERNAL, a child of the active span) and its
 * metrics, by the OpenTelemetry GenAI semantic conventions. Events mark the policy's verdict,
 * the approval asked and its decision, a background start and a cancellation; a failed call
 * gets `error.type`, status ERROR and, for an unexpected error, the exception event.
 */
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import type { ApprovalDecision, ApprovalRequest } from '../approval.js';
import type { ToolDefinition } from '../tool.js';
import { decisionType, denialReason, type AuditOutcome } from './audit-record.js';
import { currentCall, runInCall, type CurrentCall } from './current-call.js';
import { toolMetrics, type ToolMetrics } from './metrics.js';
import * as names from './names.js';
import type { OpenTelemetryApi } from './open-telemetry.js';
import type { TelemetryOptions } from './options.js';

/** What the trace needs of the call. */
export interface TracedCall {
  readonly toolCallId: string;
  readonly sessionId: string;
  readonly options: TelemetryOptions;
}

/** The span and instruments of one call, while it runs. */
export class CallTrace {
  readonly #span: Span;
  readonly #metrics: ToolMetrics;
  readonly #metricAttributes: Attributes;
  readonly #call: CurrentCall | undefined;
  readonly #options: TelemetryOptions;

  private constructor(api: OpenTelemetryApi, span: Span, metrics: ToolMetrics, tool: ToolDefinition<any>, parent: Context, options: TelemetryOptions) {
    this.#span = span;
    this.#metrics = metrics;
    this.#metricAttributes = { [names.OPERATION_NAME]: names.EXECUTE_TOOL, [names.TOOL_NAME]: tool.name };
    this.#options = options;
    // A span nobody records needs no context: the work inside runs as it would untraced.
    this.#call = span.isRecording() ? { api, context: api.trace.setSpan(parent, span), options } : undefined;
  }

  /** Starts the span of a call of `tool`, as a child of the traced call or span this runs in. */
  static start(api: OpenTelemetryApi, tool: ToolDefinition<any>, call: TracedCall): CallTrace {
    const parent = currentCall()?.context ?? api.context.active();
    const provider = call.options.tracerProvider ?? api.trace.getTracerProvider();
    const tracer = provider.getTracer(names.INSTRUMENTATION_NAME) as Tracer;
    const span = tracer.startSpan(
      `${names.EXECUTE_TOOL} ${tool.name}`,
      {
        kind: api.SpanKind.INTERNAL,
        attributes: {
          [names.OPERATION_NAME]: names.EXECUTE_TOOL,
          [names.TOOL_NAME]: tool.name,
          [names.TOOL_TYPE]: 'function',
          [names.TOOL_DESCRIPTION]: tool.description,
          [names.TOOL_KIND]: tool.kind,
          [names.CONVERSATION_ID]: call.sessionId,
          ...(call.toolCallId === '' ? {} : { [names.TOOL_CALL_ID]: call.toolCallId }),
        },
      },
      parent,
    );
    return new CallTrace(api, span, toolMetrics(api, call.options.meterProvider), tool, parent, call.options);
  }

  /** The ids to find this call in a tracing backend, when it is recorded. */
  get ids(): { traceId: string; spanId: string } | undefined {
    if (this.#call === undefined) return undefined;
    const { traceId, spanId } = this.#span.spanContext();
    return { traceId, spanId };
  }

  /** Runs the call's work inside its span. */
  run<T>(work: () => T): T {
    return this.#call === undefined ? work() : runInCall(this.#call, work);
  }

  /** The policy's verdict: the call runs, asks, or was refused (by its input, the policy or the mode). */
  verdict(verdict: 'run' | 'ask' | 'refused', refusedBy?: string): void {
    if (verdict === 'refused') this.#metrics.refusals.add(1, { ...this.#metricAttributes, [names.REFUSED_BY]: refusedBy ?? 'policy' });
    if (this.#call === undefined) return;
    this.#span.addEvent(names.POLICY_EVENT, { [names.POLICY_VERDICT]: verdict, ...(refusedBy === undefined ? {} : { [names.REFUSED_BY]: refusedBy }) });
  }

  /** A person is asked (never with the request's text, which can hold a command). */
  asked(_request: ApprovalRequest): void {
    this.#metrics.approvalsAsked.add(1, this.#metricAttributes);
    if (this.#call !== undefined) this.#span.addEvent(names.APPROVAL_ASKED_EVENT);
  }

  /** The person's decision; the free-text reason only when the host opted in. */
  decided(decision: ApprovalDecision | 'unavailable'): void {
    const type = decisionType(decision);
    if (type === 'deny') this.#metrics.approvalsDenied.add(1, this.#metricAttributes);
    if (this.#call === undefined) return;
    const reason = denialReason(decision);
    this.#span.addEvent(names.APPROVAL_DECIDED_EVENT, {
      [names.APPROVAL_DECISION]: type,
      ...(reason !== undefined && this.#options.recordApprovalReasons === true ? { [names.APPROVAL_REASON]: reason } : {}),
    });
  }

  /** Ends the span and records the duration, with the outcome as `error.type` when it failed. */
  end(outcome: AuditOutcome, durationMs: number, details: { jobId?: string; error?: unknown }): void {
    const errorType = errorTypeOf(outcome, details.error);
    this.#metrics.duration.record(durationMs / 1000, errorType === undefined ? this.#metricAttributes : { ...this.#metricAttributes, [names.ERROR_TYPE]: errorType });
    if (this.#call === undefined) return this.#span.end();
    if (details.jobId !== undefined) this.#span.addEvent(names.BACKGROUND_EVENT, { [names.JOB_ID]: details.jobId });
    if (outcome === 'cancelled') this.#span.addEvent(names.CANCELLED_EVENT);
    if (details.error !== undefined) this.#span.addEvent(names.EXCEPTION_EVENT, exceptionAttributes(details.error));
    if (errorType !== undefined) {
      this.#span.setAttribute(names.ERROR_TYPE, errorType);
      this.#span.setStatus({ code: this.#call.api.SpanStatusCode.ERROR, message: outcome });
    }
    this.#span.end();
  }
}

/** `error.type`: the unexpected error's class name, else the outcome; none for a success. */
function errorTypeOf(outcome: AuditOutcome, error: unknown): string | undefined {
  if (outcome === 'ok') return undefined;
  if (outcome === 'failed' && error instanceof Error) return error.name || 'Error';
  return outcome === 'error' ? 'tool_error' : outcome;
}

function exceptionAttributes(error: unknown): Attributes {
  if (!(error instanceof Error)) return { 'exception.type': typeof error, 'exception.message': String(error) };
  return { 'exception.type': error.name, 'exception.message': error.message, ...(error.stack === undefined ? {} : { 'exception.stacktrace': error.stack }) };
}
