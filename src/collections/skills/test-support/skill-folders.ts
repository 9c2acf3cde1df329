import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Workspace } from '../../../workspace/workspace.js';

/** A fresh workspace in a temporary folder. */
export async function skillWorkspace(): Promise<Workspace> {
  return new Workspace(await mkdtemp(path.join(tmpdir(), 'toolbelt-skills-')));
}

/** The text of a SKILL.md with this front matter and body. */
export function skillText(name: string, description: string, body = `# ${name}\n\nDo the ${name} thing step by step.\n`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`;
}

/** Writes `<folder>/<name>/SKILL.md` (and any other files, relative to the skill folder) in the workspace. */
export async function writeSkill(workspace: Workspace, folder: string, name: string, text: string, files: Record<string, string> = {}): Promise<string> {
  const directory = path.join(workspace.root, folder, name);
  await mkdir(directory, { recursive: true });
  await writeFile(path.join(directory, 'SKILL.md'), text);
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(directory, file)), { recursive: true });
    await writeFile(path.join(directory, file), content);
  }
  return directory;
}
