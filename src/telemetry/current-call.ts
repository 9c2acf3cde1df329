/**
 * The traced call a piece of work belongs to, carried by Node's AsyncLocalStorage: the spans a
 * tool makes inside its call (a command, a skill) find their parent and the host's recording
 * options here, whether or not the host registered an OpenTelemetry context manager.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from '@opentelemetry/api';
import type { OpenTelemetryApi } from './open-telemetry.js';
import type { TelemetryOptions } from './options.js';

/** A traced call, as the work inside it sees it. */
export interface CurrentCall {
  readonly api: OpenTelemetryApi;
  /** The OpenTelemetry context with the call's span in it. */
  readonly context: Context;
  readonly options: TelemetryOptions;
}

const storage = new AsyncLocalStorage<CurrentCall>();

/** The traced call this code runs in, if any. */
export function currentCall(): CurrentCall | undefined {
  return storage.getStore();
}

/** Runs `work` as part of `call`, in its OpenTelemetry context too. */
export function runInCall<T>(call: CurrentCall, work: () => T): T {
  return storage.run(call, () => call.api.context.with(call.context, work));
}
