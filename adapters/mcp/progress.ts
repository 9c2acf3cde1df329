import type { ProgressListener } from '../../src/index.js';

/** What {@link progressNotifier} needs of a request handler's context (`ctx.mcpReq`). */
export interface ProgressRequestExtra {
  readonly _meta?: { readonly progressToken?: string | number } & Record<string, unknown>;
  readonly notify: (notification: { method: 'notifications/progress'; params: ProgressParams }) => Promise<void>;
}

interface ProgressParams {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
  [key: string]: unknown;
}

/**
 * A call's progress as MCP `notifications/progress`, only when the client asked for them by
 * sending a `progressToken` (the SDK's `onprogress` request option does); otherwise nothing,
 * so the call runs without the work. `progress` always increases, as the protocol requires:
 * the tool's own count when it has one and it grew, else one more than the last. `message`
 * carries the output that arrived since the previous notification, or the tool's status line.
 * A notification that cannot be sent (the client went away) is dropped; the call goes on.
 */
export function progressNotifier(extra: ProgressRequestExtra): ProgressListener | undefined {
  const token = extra._meta?.progressToken;
  if (typeof token !== 'string' && typeof token !== 'number') return undefined;
  let last = 0;
  return (event) => {
    const counted = event.progress !== undefined && event.progress > last;
    const progress = counted ? event.progress! : last + 1;
    last = progress;
    const message = event.output !== '' ? event.output : event.message;
    const total = counted && event.total !== undefined && event.total >= progress ? event.total : undefined;
    extra
      .notify({
        method: 'notifications/progress',
        params: { progressToken: token, progress, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) },
      })
      .catch(() => undefined);
  };
}
