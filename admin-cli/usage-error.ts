/**
 * Bad command-line input, shared by the admin CLI and the backfill script: each prints the message as one line
 * and exits with status 2.
 */
export class UsageError extends Error {
  readonly code = 'usage';
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
