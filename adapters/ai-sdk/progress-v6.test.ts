import { stepCountIs, streamText } from 'ai-v6';
import { MockLanguageModelV3 } from 'ai-v6/test';
import { describe, vi } from 'vitest';
import { aiSdkProgressScenarios } from './test-support/progress-scenarios.js';

// The adapter imports `ai`; here that is ai v6 (the `ai-v6` alias), as in a project on ai v6.
vi.mock('ai', async () => await import('ai-v6'));

describe('AI SDK (ai v6): live tool output as preliminary results', () => {
  aiSdkProgressScenarios({ streamText, stopAfter: stepCountIs, Mock: MockLanguageModelV3 });
});
