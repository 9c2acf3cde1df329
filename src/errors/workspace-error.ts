/** A workspace that cannot be used: a missing or blank root, a private folder that is a file or a link out. */
export class WorkspaceError extends Error {
  override name = 'WorkspaceError';
  readonly root: string;

  constructor(root: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.root = root;
  }
}
