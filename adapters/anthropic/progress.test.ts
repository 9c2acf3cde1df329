import { describe, expect, it } from 'vitest';
import { createSession, type ToolProgress } from '../../src/index.js';
import { expectTickingProgress, shellScenario, TICKING_COMMAND } from '../../test/progress/scenario.js';
import { toAnthropic } from './index.js';

describe('toAnthropic onProgress', () => {
  it("reports Claude's bash output while handleToolUses waits, and the result holds it all", async () => {
    const { shell } = await shellScenario();
    const events: ToolProgress[] = [];
    const belt = toAnthropic([shell], { session: createSession(), native: true, mode: 'auto', onProgress: (event) => events.push(event) });
    const handled = await belt.handleToolUses([{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: TICKING_COMMAND } }]);
    expect(events.every((event) => event.toolCallId === 'toolu_1' && event.toolName === 'bash')).toBe(true);
    expectTickingProgress(events.map((event) => event.recentOutput), handled.content[0]!.content as string);
  });
});
