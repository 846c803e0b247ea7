import { ApiError } from '../../lambdas/core/domain/errors';

export interface Refusal {
  status: number;
  code: string;
  param: string | undefined;
  message: string;
}

/** The contract error a read throws, as plain fields; anything else it throws is rethrown, and no throw fails. */
export function refusal(run: () => unknown): Refusal {
  try {
    run();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, code: error.code, param: error.param, message: error.message };
  }
  throw new Error('expected the parameters to be refused');
}
