/** Bad command-line input (admin CLI and backfill): printed as one line, exit status 2. */
export class UsageError extends Error {
  readonly code = 'usage';
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
