import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createImageTools, VISION_SYSTEM_PROMPT, Workspace } from '../../src/index.js';
import { langchainVision, toLangChain } from './index.js';

const PIXEL = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('langchainVision', () => {
  it('sends the system text, each image after its label, then the question, and answers with the reply text', async () => {
    const model = fakeModel().respond(new AIMessage('A red square.'));
    const vision = langchainVision(model);

    const answer = await vision.ask({
      system: 'Describe images.',
      images: [
        { data: PIXEL, mediaType: 'image/png', label: 'Image 1' },
        { data: PIXEL, mediaType: 'image/jpeg', label: 'Image 2' },
      ],
      question: 'What is in Image 2?',
      signal: new AbortController().signal,
    });

    expect(answer).toBe('A red square.');
    const [system, human] = model.calls[0]!.messages;
    expect(SystemMessage.isInstance(system) && system.text).toBe('Describe images.');
    expect(HumanMessage.isInstance(human)).toBe(true);
    const base64 = Buffer.from(PIXEL).toString('base64');
    expect(human!.content).toEqual([
      { type: 'text', text: 'Image 1:' },
      { type: 'image', mimeType: 'image/png', data: base64 },
      { type: 'text', text: 'Image 2:' },
      { type: 'image', mimeType: 'image/jpeg', data: base64 },
      { type: 'text', text: 'What is in Image 2?' },
    ]);
  });

  it('rejects when the model fails, so query_image can report it', async () => {
    const vision = langchainVision(fakeModel().alwaysThrow(new Error('quota exceeded')));
    await expect(
      vision.ask({ system: 's', images: [], question: 'q', signal: new AbortController().signal }),
    ).rejects.toThrow('quota exceeded');
  });

  it('refuses something that is not a chat model', () => {
    expect(() => langchainVision({} as never)).toThrow('Expected a LangChain chat model with an `invoke` method, got `[object Object]`.');
  });
});

describe('query_image through toLangChain with langchainVision', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'toolbelt-lc-vision-'));
    await copyFile(new URL('../../fixtures/images/screenshot.png', import.meta.url), join(root, 'screenshot.png'));
  });
  afterAll(async () => rm(root, { recursive: true, force: true }));

  it('answers a question about a workspace image with the vision model', async () => {
    const model = fakeModel().respond(new AIMessage('A login form.'));
    const images = createImageTools({ workspace: new Workspace(root), vision: langchainVision(model) });
    const queryImage = toLangChain([images]).tools.find((tool) => tool.name === 'query_image')!;

    const message = await queryImage.invoke({
      type: 'tool_call',
      id: 'c1',
      name: 'query_image',
      args: { paths: ['screenshot.png'], question: 'What is shown?' },
    });

    expect(ToolMessage.isInstance(message)).toBe(true);
    expect(message.status).toBe('success');
    expect(String(message.content)).toContain('A login form.');
    const [system, human] = model.calls[0]!.messages;
    expect(system!.text).toBe(VISION_SYSTEM_PROMPT);
    expect(human!.content).toContainEqual({ type: 'text', text: 'What is shown?' });
    expect((human!.content as { type: string }[]).filter((block) => block.type === 'image')).toHaveLength(1);
  });
});
