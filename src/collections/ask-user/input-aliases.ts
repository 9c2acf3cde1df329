/**
 * @module ask_user_question's alias table. Claude Code's AskUserQuestion sends this tool's own
 * shape (`multiSelect` is read as `multi_select` by the core); what else models send is one
 * question flat at the top level (`{ question, header, options }`), read as the list of one
 * it means, and fields with no place here, refused with what to send. The core applies it.
 */
import type { InputAlias, InputAliases } from '../../model-inputs/aliases.js';

/** The fields of one question, and the names the core reads as them. */
const QUESTION_KEYS = ['question', 'header', 'options', 'multi_select', 'multiSelect', 'allow_multiple', 'allowMultiple'];

/** A question sent flat, as the one question of `questions`. */
function oneQuestion(): InputAlias {
  return {
    to: 'questions',
    convert: (_value, input) => {
      if ('questions' in input) throw new TypeError('every field of a question inside the entries of `questions`');
      return [Object.fromEntries(Object.entries(input).filter(([key]) => QUESTION_KEYS.includes(key)))];
    },
  };
}

/** ask_user_question's table. */
export const ASK_USER_ALIASES: InputAliases = {
  ...Object.fromEntries(QUESTION_KEYS.map((key) => [key, oneQuestion()])),
  'questions[].allow_multiple': 'multi_select',
  'questions[].allowMultiple': 'multi_select',
  'questions[].options[].markdown': {
    refuse: 'ask_user_question shows no preview for an option: send the options without `markdown`, with what it showed said briefly in the option\'s `description`',
  },
  answers: { refuse: 'The user gives the answers: send the call without `answers`, and the reply brings what the user chose' },
};
