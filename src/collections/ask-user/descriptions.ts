/** System-prompt text of the ask-the-user collection. */
export const ASK_USER_INSTRUCTIONS = `When a decision is the user's to make and you cannot find the answer yourself (requirements, preferences, trade-offs between approaches), ask with ask_user_question instead of guessing. Do not ask what you can find out by reading or running things, and do not ask for permission to go on.`;

export const ASK_USER_QUESTION_DESCRIPTION = `Asks the user 1 to 4 multiple-choice questions at once and waits for the answers. Put a recommended option first and say so in its label, e.g. "OAuth (recommended)". The reply lists each question with the user's answer, "(no answer)" for one they skipped.`;

/** The result when the host has no way to reach the user. */
export const CANNOT_ASK_TEXT =
  'ask_user_question cannot reach the user here: this host has no way to show questions. Do not wait for answers: make a reasonable choice, say which one and why, and go on, or put the questions in your reply.';
