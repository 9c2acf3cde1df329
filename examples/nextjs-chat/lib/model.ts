import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import { scriptedChatModel } from './scripted-model';

/**
 * The model: a scripted one when `TOOLBELT_MODEL=scripted` (the end-to-end test, or trying the
 * app without a key), else OpenAI (`OPENAI_API_KEY`, `OPENAI_MODEL`, and `OPENAI_BASE_URL` for
 * any OpenAI-compatible server).
 */
export function chatModel(): Exclude<LanguageModel, string> {
  if (process.env.TOOLBELT_MODEL === 'scripted') return scriptedChatModel();
  const openai = createOpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY ?? 'local' }); // a local server ignores the key
  const modelId = process.env.OPENAI_MODEL ?? 'gpt-5.1-mini';
  return process.env.OPENAI_BASE_URL ? openai.chat(modelId) : openai(modelId);
}
