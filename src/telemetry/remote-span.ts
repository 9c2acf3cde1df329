/**
 * The remote workspace's requests as spans that cross into the box: a CLIENT span per request
 * made inside a traced call, whose W3C `traceparent` rides in the request's `_meta`, and the
 * box's SERVER span, a child of it, so the box's work joins the caller's trace. Written and
 * read here, without a propagator, so it works whatever the host registered.
 */
import type { Context, Span, SpanContext, Tracer } from '@opentelemetry/api';
import { currentCall, runInCall } from './current-call.js';
import { INSTRUMENTATION_NAME } from './names.js';
import { openTelemetryApi } from './open-telemetry.js';

/** What a traced request carries to the box, beside its own parameters. */
export interface RequestMeta {
  readonly traceparent: string;
}

/** A request's span while it is out. */
export interface RequestSpan {
  /** For the request's `_meta`. */
  readonly meta: RequestMeta;
  end(error?: unknown): void;
}

const RPC_ATTRIBUTES = (method: string) => ({ 'rpc.system.name': 'jsonrpc', 'rpc.method': method });

/** Starts the CLIENT span of a request to the box, when it is made inside a traced call. */
export function startRequestSpan(method: string, peer: string): RequestSpan | undefined {
  const call = currentCall();
  if (call === undefined) return undefined;
  const { api } = call;
  const tracer = (call.options.tracerProvider ?? api.trace.getTracerProvider()).getTracer(INSTRUMENTATION_NAME) as Tracer;
  const span = tracer.startSpan(method, { kind: api.SpanKind.CLIENT, attributes: { ...RPC_ATTRIBUTES(method), 'agent_toolbelt.workspace': peer } }, call.context);
  return {
    meta: { traceparent: traceparentOf(span.spanContext()) },
    end: (error) => endSpan(span, call.api, error),
  };
}

/**
 * Runs the box's handler of one request, in a SERVER span that continues the caller's trace
 * when the request carried a `traceparent` and the box records spans; else just runs it.
 */
export async function serveTraced<T>(method: string, meta: unknown, handle: () => Promise<T>): Promise<T> {
  const parent = parseTraceparent((meta as Partial<RequestMeta> | undefined)?.traceparent);
  if (parent === undefined) return handle();
  const loaded = openTelemetryApi();
  const api = loaded instanceof Promise ? await loaded : loaded;
  if (api === null) return handle();
  const remote: Context = api.trace.setSpanContext(api.ROOT_CONTEXT, { ...parent, isRemote: true });
  const span = (api.trace.getTracer(INSTRUMENTATION_NAME) as Tracer).startSpan(method, { kind: api.SpanKind.SERVER, attributes: RPC_ATTRIBUTES(method) }, remote);
  if (!span.isRecording()) return handle();
  try {
    const result = await runInCall({ api, context: api.trace.setSpan(remote, span), options: {} }, handle);
    endSpan(span, api);
    return result;
  } catch (error) {
    endSpan(span, api, error);
    throw error;
  }
}

function endSpan(span: Span, api: { SpanStatusCode: { ERROR: number } }, error?: unknown): void {
  if (error !== undefined) {
    span.setAttribute('error.type', error instanceof Error ? error.name : typeof error);
    span.setStatus({ code: api.SpanStatusCode.ERROR as never, message: error instanceof Error ? error.message : String(error) });
  }
  span.end();
}

/** `00-<trace id>-<span id>-<flags>`, the W3C Trace Context header. */
export function traceparentOf(context: SpanContext): string {
  return `00-${context.traceId}-${context.spanId}-${(context.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The span context a `traceparent` names, or `undefined` for anything else (all-zero ids included). */
export function parseTraceparent(value: unknown): Pick<SpanContext, 'traceId' | 'spanId' | 'traceFlags'> | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TRACEPARENT.exec(value);
  if (match === null || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return undefined;
  return { traceId: match[1]!, spanId: match[2]!, traceFlags: Number.parseInt(match[3]!, 16) };
}
