import { describe, expect, it } from 'vitest';
import { createSession, MAX_PROGRESS_CHARACTERS, runTool, type ToolProgress } from '../../src/index.js';
import { measureEventLoopBlock } from '../support/event-loop.js';
import { shellScenario } from './scenario.js';

describe('live output under a flood', () => {
  it('stays bounded and keeps the event loop free while a command prints 100 MB', async () => {
    const { shell } = await shellScenario();
    const events: ToolProgress[] = [];
    const { result, maxDelayMs, elapsedMs } = await measureEventLoopBlock(() =>
      runTool(shell.tools[0]!, { command: 'head -c 100000000 /dev/zero | tr "\\0" x | fold -w 100' }, {
        session: createSession(),
        mode: 'auto',
        onProgress: (event) => events.push(event),
      }),
    );
    expect(result.isError).toBe(false);
    // At most one event per 250 ms, plus the first and the last.
    expect(events.length).toBeLessThanOrEqual(Math.ceil(elapsedMs / 250) + 2);
    expect(events.every((event) => event.output.length <= MAX_PROGRESS_CHARACTERS && event.recentOutput.length <= MAX_PROGRESS_CHARACTERS)).toBe(true);
    // fold ends the last line without a line break: 999,999 of them in all.
    expect(events.at(-1)!.totalCharacters).toBe(100_000_000 + 999_999);
    expect(events.at(-1)!.recentOutput.endsWith(`\n${'x'.repeat(100)}`)).toBe(true);
    // A generous bound: the machine is shared; an idle one reads about 15-25 ms with or without listening.
    expect(maxDelayMs).toBeLessThan(100);
  }, 60_000);
});
