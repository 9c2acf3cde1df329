/**
 * The call metrics: `gen_ai.execute_tool.duration` (seconds, by tool and outcome) and counts
 * of refusals, approvals asked and approvals denied. Instruments are made once per meter
 * provider, so a provider registered after the first call is still used.
 */
import type { Attributes, Counter, Histogram, MeterProvider } from '@opentelemetry/api';
import type { OpenTelemetryApi } from './open-telemetry.js';
import { APPROVALS_ASKED_METRIC, APPROVALS_DENIED_METRIC, DURATION_BUCKETS, DURATION_METRIC, INSTRUMENTATION_NAME, REFUSALS_METRIC } from './names.js';

/** The instruments of one meter provider. */
export interface ToolMetrics {
  readonly duration: Histogram;
  readonly refusals: Counter;
  readonly approvalsAsked: Counter;
  readonly approvalsDenied: Counter;
}

const byProvider = new WeakMap<object, ToolMetrics>();

/** The instruments of the given provider, or of the global one. */
export function toolMetrics(api: OpenTelemetryApi, provider?: unknown): ToolMetrics {
  const meterProvider = (provider ?? api.metrics.getMeterProvider()) as MeterProvider;
  let metrics = byProvider.get(meterProvider);
  if (metrics === undefined) {
    const meter = meterProvider.getMeter(INSTRUMENTATION_NAME);
    metrics = {
      duration: meter.createHistogram(DURATION_METRIC, {
        description: 'Duration of tool execution.',
        unit: 's',
        advice: { explicitBucketBoundaries: DURATION_BUCKETS },
      }),
      refusals: meter.createCounter(REFUSALS_METRIC, { description: 'Tool calls refused before they ran: bad input, the policy or the mode.', unit: '{call}' }),
      approvalsAsked: meter.createCounter(APPROVALS_ASKED_METRIC, { description: 'Tool calls a person was asked to approve.', unit: '{call}' }),
      approvalsDenied: meter.createCounter(APPROVALS_DENIED_METRIC, { description: 'Tool calls a person denied.', unit: '{call}' }),
    };
    byProvider.set(meterProvider, metrics);
  }
  return metrics;
}

export type { Attributes };
