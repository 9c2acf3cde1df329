/** OpenAI strict-mode schemas live in the core (the AI SDK adapter sends them too); re-exported here for this adapter's modules. */
export { dropNullOptionals, toFunctionParameters, toLooseParameters } from '../../src/strict-schema.js';
export type { FunctionParameters, JsonSchema } from '../../src/strict-schema.js';
