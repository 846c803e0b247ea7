import { SourceFormatError } from '../../../lambdas/core/sources/errors';

/** Runs a parse that must fail, and returns its SourceFormatError (failing the test on anything else). */
export function formatError(run: () => unknown): SourceFormatError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SourceFormatError);
    return error as SourceFormatError;
  }
  throw new Error('expected a SourceFormatError');
}
