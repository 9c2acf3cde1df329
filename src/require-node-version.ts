/**
 * Imported first by the package's entry point, so the version check runs before any
 * dependency is evaluated (ES module imports are evaluated in order, each one's own imports
 * first). A library throws; see `exit-on-old-node.ts` for programs.
 * @module
 */
import { assertSupportedNode } from './node-version.js';

assertSupportedNode();
