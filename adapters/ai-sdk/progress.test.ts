import { isStepCount, streamText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe } from 'vitest';
import { aiSdkProgressScenarios } from './test-support/progress-scenarios.js';

describe('AI SDK (ai v7): live tool output as preliminary results', () => {
  aiSdkProgressScenarios({ streamText, stopAfter: isStepCount, Mock: MockLanguageModelV4 });
});
