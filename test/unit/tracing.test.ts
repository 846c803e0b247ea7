import { TRACING_ENV, tracingEnabled, tracingSetting } from '../../lambdas/core/tracing';

describe('the tracing setting', () => {
  it('is named FXRATES_TRACING and written as true or false', () => {
    expect(TRACING_ENV).toBe('FXRATES_TRACING');
    expect([tracingSetting(true), tracingSetting(false)]).toEqual(['true', 'false']);
  });

  it('reads on only from the value the deployment writes for on', () => {
    expect(tracingEnabled({ [TRACING_ENV]: tracingSetting(true) })).toBe(true);
    expect(tracingEnabled({ [TRACING_ENV]: tracingSetting(false) })).toBe(false);
    expect(tracingEnabled({})).toBe(false);
    expect(tracingEnabled({ [TRACING_ENV]: 'TRUE' })).toBe(false);
  });
});
