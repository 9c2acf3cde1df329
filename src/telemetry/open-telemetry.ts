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
  // A host's own choice (setOpenTelemetryApi) made while the import was under way stands.
  loading ??= import('@opentelemetry/api').then(
    (module) => (loaded = loaded === undefined ? module : loaded),
    () => (loaded = loaded === undefined ? null : loaded),
  );
  return loading;
}

/** Sets what {@link openTelemetryApi} answers from now on (see `useOpenTelemetryApi`). */
export function setOpenTelemetryApi(api: unknown): void {
  loaded = api as OpenTelemetryApi | null;
  loading = Promise.resolve(loaded);
}
