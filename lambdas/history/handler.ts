// Placeholder until this function's issue work lands; it keeps the CDK app synthesizable meanwhile.
export const handler = async (): Promise<never> => {
  throw new Error('not implemented yet');
};
