import { ToolError } from './tool-error.js';

/** Why a path was refused. */
export type PathErrorReason =
  | 'empty'
  | 'nul-byte'
  | 'too-long'
  | 'outside'
  | 'link-outside'
  | 'link-loop'
  | 'not-found'
  | 'not-a-directory'
  | 'not-a-file'
  | 'private';

/** A path the workspace refused. The message is written for the model. */
export class PathError extends ToolError {
  override name = 'PathError';
  readonly path: string;
  readonly reason: PathErrorReason;

  constructor(path: string, reason: PathErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.path = path;
    this.reason = reason;
  }
}
