/**
 * The one public way to hand the OpenTelemetry API over; kept apart from the loader so the
 * package's declarations never name `@opentelemetry/api`, which a project may not have.
 */
import { setOpenTelemetryApi } from './open-telemetry.js';

/**
 * Hands the API over explicitly, for hosts whose bundler cannot resolve an optional import
 * (`import * as otel from '@opentelemetry/api'; useOpenTelemetryApi(otel)`), or `null` to
 * switch recording off for the process.
 *
 * @example
 * import * as otel from '@opentelemetry/api';
 * useOpenTelemetryApi(otel);
 */
export function useOpenTelemetryApi(api: unknown): void {
  if (api !== null && (typeof api !== 'object' || typeof (api as { trace?: { getTracer?: unknown } }).trace?.getTracer !== 'function')) {
    throw new TypeError(`Expected the \`@opentelemetry/api\` module (\`import * as otel from '@opentelemetry/api'\`) or null, got ${typeof api}.`);
  }
  setOpenTelemetryApi(api);
}
