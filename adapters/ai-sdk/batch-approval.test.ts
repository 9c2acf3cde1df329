import { generateText, isStepCount, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe } from 'vitest';
import { aiSdkBatchApprovalScenarios } from './test-support/batch-approval-scenarios.js';

describe('AI SDK (ai v7, toolApproval): approvals for a step that reads a file and then writes it', () => {
  aiSdkBatchApprovalScenarios({ generateText, streamText, wrapLanguageModel, stopAfter: isStepCount, Mock: MockLanguageModelV4, toolApproval: true });
});

describe('AI SDK (ai v7, needsApproval only): approvals for a step that reads a file and then writes it', () => {
  aiSdkBatchApprovalScenarios({ generateText, streamText, wrapLanguageModel, stopAfter: isStepCount, Mock: MockLanguageModelV4, toolApproval: false });
});
