/**
 * `@opentelemetry/api`, an optional peer, loaded once on first use. Without the package
 * nothing is recorded, and a call pays one function call to learn it.
 */
import type * as OpenTelemetryModule from '@opentelemetry/api';

/** The OpenTelemetry API as this package uses it. */
export type OpenTelemetryApi = typeof OpenTelemetryModule;

let loaded: OpenTelemetryApi | null | undefined;
let loading: Promise<OpenTelemetryApi | null> | undefined;

/**
 * The API once it is known: the module, `null` when it is not installed, or (only until the
 * first import settles) a promise of either.
 */
export function openTelemetryApi(): OpenTelemetryApi | null | Promise<OpenTelemetryApi | null> {
  if (loaded !== undefined) return loaded;
  loading ??= import('@opentelemetry/api').then(
    (module) => (loaded = module),
    () => (loaded = null),
  );
  return loading;
}

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
  if (api !== null && (typeof api !== 'object' || typeof (api as Partial<OpenTelemetryApi>).trace?.getTracer !== 'function')) {
    throw new TypeError(`Expected the \`@opentelemetry/api\` module (\`import * as otel from '@opentelemetry/api'\`) or null, got ${typeof api}.`);
  }
  loaded = api as OpenTelemetryApi | null;
  loading = Promise.resolve(loaded);
}
