import { afterAll, describe, expect, it } from 'vitest';
import type { Driver } from './driver.js';
import { aiSdkDriver } from './drivers/ai-sdk.js';
import { anthropicDriver } from './drivers/anthropic.js';
import { langChainDriver } from './drivers/langchain.js';
import { mcpDriver } from './drivers/mcp.js';
import { openAiDriver } from './drivers/openai.js';
import { removeProjects } from './project.js';
import { scenarios } from './scenarios.js';

/**
 * Every scenario against every adapter with the host's `onApproval`; the approval scenarios
 * also against each framework's own approval flow.
 */
const drivers: Driver[] = [aiSdkDriver, langChainDriver, openAiDriver, anthropicDriver, mcpDriver].flatMap((driver) => [driver('callback'), driver('native')]);

afterAll(removeProjects);

describe.each(drivers)('$name', (driver) => {
  for (const scenario of scenarios) {
    if (driver.approvals === 'native' && !scenario.aboutApproval) continue;
    const skip = scenario.skip?.(driver);
    if (skip !== undefined) {
      it.skip(`${scenario.name} (skipped: ${skip})`, () => {});
      continue;
    }
    const gap = scenario.knownGap?.(driver);
    if (gap !== undefined) {
      it(`${scenario.name} (known gap, expected to fail)`, async () => {
        const error = await scenario.run(driver).then(() => undefined, (caught: unknown) => caught);
        expect(error, `The gap is closed; make this a plain scenario. It was: ${gap}`).toBeInstanceOf(Error);
        // An assertion of the scenario failed, not the framework or the driver.
        expect((error as Error).name).toBe('AssertionError');
      });
    } else {
      it(scenario.name, () => scenario.run(driver));
    }
  }
});
