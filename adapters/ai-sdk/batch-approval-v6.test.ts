import { generateText, stepCountIs, streamText, wrapLanguageModel } from 'ai-v6';
import { MockLanguageModelV3 } from 'ai-v6/test';
import { describe, vi } from 'vitest';
import { aiSdkBatchApprovalScenarios } from './test-support/batch-approval-scenarios.js';

// The adapter imports `ai`; here that is ai v6 (the `ai-v6` alias), as in a project on ai v6.
vi.mock('ai', async () => await import('ai-v6'));

describe('AI SDK (ai v6): approvals for a step that reads a file and then writes it', () => {
  aiSdkBatchApprovalScenarios({ generateText, streamText, wrapLanguageModel, stopAfter: stepCountIs, Mock: MockLanguageModelV3, toolApproval: false });
});
