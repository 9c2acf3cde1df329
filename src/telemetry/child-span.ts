/**
 * Spans a tool makes inside its call (a command, a skill load): children of the call's
 * `execute_tool` span, and nothing at all when the call is not traced.
 */
import type { Attributes, Tracer } from '@opentelemetry/api';
import { currentCall, runInCall, type CurrentCall } from './current-call.js';
import { ERROR_TYPE, INSTRUMENTATION_NAME } from './names.js';

/** What a finished piece of work adds to its span. */
export interface SpanOutcome {
  readonly attributes?: Attributes;
  /** Set for a failure: `error.type` and status ERROR. */
  readonly errorType?: string;
}

/**
 * Runs `work` in a child span of the traced call it belongs to (or just runs it when there is
 * none). `attributes` may be a function of the call, so opt-in attributes can read the host's
 * telemetry options; `describe` turns the result into the span's last attributes.
 */
export async function traceChild<T>(
  name: string,
  attributes: Attributes | ((call: CurrentCall) => Attributes),
  work: () => Promise<T>,
  describe?: (result: T) => SpanOutcome,
): Promise<T> {
  const call = currentCall();
  if (call === undefined) return work();
  const { api } = call;
  const tracer = (call.options.tracerProvider ?? api.trace.getTracerProvider()).getTracer(INSTRUMENTATION_NAME) as Tracer;
  const span = tracer.startSpan(name, { kind: api.SpanKind.INTERNAL, attributes: typeof attributes === 'function' ? attributes(call) : attributes }, call.context);
  try {
    const result = await runInCall({ ...call, context: api.trace.setSpan(call.context, span) }, work);
    const outcome = describe?.(result);
    if (outcome?.attributes !== undefined) span.setAttributes(outcome.attributes);
    if (outcome?.errorType !== undefined) {
      span.setAttribute(ERROR_TYPE, outcome.errorType);
      span.setStatus({ code: api.SpanStatusCode.ERROR });
    }
    return result;
  } catch (error) {
    const type = error instanceof Error ? error.name : typeof error;
    span.recordException(error instanceof Error ? error : String(error));
    span.setAttribute(ERROR_TYPE, type);
    span.setStatus({ code: api.SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}
