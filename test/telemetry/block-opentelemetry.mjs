// Makes `@opentelemetry/api` impossible to resolve in this process, as in a project that does
// not install it. Loaded with `node --import`.
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === '@opentelemetry/api' || specifier.startsWith('@opentelemetry/api/')) {
      throw Object.assign(new Error(`Cannot find package '${specifier}'`), { code: 'ERR_MODULE_NOT_FOUND' });
    }
    return nextResolve(specifier, context);
  },
});
