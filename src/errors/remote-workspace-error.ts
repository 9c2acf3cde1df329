import { ToolError } from './tool-error.js';

/**
 * A remote workspace that cannot answer: its box or connection is gone, it sent something
 * that is not the protocol, it speaks another version, or a call ran past its timeout. A
 * tool call that meets it comes back as an `isError` result with this message (it is a
 * {@link ToolError}); `connectWorkspace` rejects with it when the box cannot be reached or
 * lacks what the server needs, the message saying what to install or fix.
 */
export class RemoteWorkspaceError extends ToolError {
  override name = 'RemoteWorkspaceError';
  /** The workspace, as `workspace.description` shows it. */
  readonly workspace: string;

  constructor(workspace: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.workspace = workspace;
  }
}
