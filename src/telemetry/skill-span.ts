/** `load_skill`'s span: which skill was loaded, from which folder. */
import { traceChild } from './child-span.js';
import { SKILL_FOLDER, SKILL_NAME } from './names.js';

/** Loads a skill inside its span (when the call is traced). */
export function traceSkillLoad<T>(skill: { readonly name: string; readonly folder: string }, load: () => Promise<T>): Promise<T> {
  return traceChild(`load_skill ${skill.name}`, { [SKILL_NAME]: skill.name, [SKILL_FOLDER]: skill.folder }, load);
}
