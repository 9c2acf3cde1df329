'use client';

import type { UIMessage } from 'ai';
import { useEffect, useRef, useState } from 'react';
import type { CallView, ToolPart } from './types';

/** What /api/calls needs about a part in its present state, or undefined while its input streams. */
function callOf(part: ToolPart) {
  if (part.state === 'input-streaming') return undefined;
  const base = { toolCallId: part.toolCallId, toolName: part.type.slice('tool-'.length), input: part.input };
  if (part.state === 'output-available' && !part.preliminary) return { phase: 'result', call: { ...base, output: part.output } };
  if (part.state === 'output-error') return { phase: 'result', call: { ...base, output: part.errorText ?? '' } };
  if (part.state === 'output-denied') return { phase: 'denied', call: { ...base, denied: { reason: part.approval?.reason } } };
  return { phase: 'call', call: base };
}

/**
 * Asks `/api/calls` for the words of each tool call (the core's `describeToolCall` and
 * `describeToolResult`): once when the call appears, again when it has its result. A request
 * that fails (no answer, or an error status) is asked again with the next change.
 */
export function useCallViews(messages: UIMessage[]): Record<string, CallView> {
  const [views, setViews] = useState<Record<string, CallView>>({});
  const asked = useRef(new Set<string>());
  useEffect(() => {
    const calls = messages
      .flatMap((message) => message.parts as unknown as ToolPart[])
      .filter((part) => part.type.startsWith('tool-'))
      .map(callOf)
      .filter((entry) => entry !== undefined && !asked.current.has(`${entry.call.toolCallId}:${entry.phase}`));
    if (calls.length === 0) return;
    for (const entry of calls) asked.current.add(`${entry!.call.toolCallId}:${entry!.phase}`);
    void fetch('/api/calls', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ calls: calls.map((entry) => entry!.call) }) })
      .then((response) => {
        if (!response.ok) throw new Error(`/api/calls answered ${response.status}`);
        return response.json() as Promise<Record<string, CallView>>;
      })
      .then((answer) => setViews((current) => ({ ...current, ...answer })))
      .catch(() => {
        for (const entry of calls) asked.current.delete(`${entry!.call.toolCallId}:${entry!.phase}`); // asked again with the next change
      });
  }, [messages]);
  return views;
}
