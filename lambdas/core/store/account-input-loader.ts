/** @deprecated The accounts store checks its input itself (account-input.ts); kept for callers that still pass it. */
export const loadAccountInput = async (): Promise<undefined> => undefined;
