import { randomBytes } from 'node:crypto';
import { newTraceHeader } from '../../../local-server/trace-header';

// The X-Ray SDK's own reading of a header, as the traced functions read `_X_AMZN_TRACE_ID`.
const { LambdaUtils, processTraceData } = require('aws-xray-sdk-core/dist/lib/utils') as {
  LambdaUtils: { validTraceData(header: string): boolean };
  processTraceData(header: string): Record<string, string>;
};
const TraceID = require('aws-xray-sdk-core/dist/lib/segments/attributes/trace_id') as {
  FromString(id: string): { toString(): string };
};

const counting = () => {
  let next = 0;
  return (size: number) => Uint8Array.from({ length: size }, () => next++);
};

describe('the tracing header of a local invocation', () => {
  it("puts the clock's seconds and 96 then 64 random bits where the header's format has them, unsampled", () => {
    const header = newTraceHeader({ now: () => Date.UTC(2026, 10, 29, 12, 0, 0, 999), randomBytes: counting() });
    const seconds = (Date.UTC(2026, 10, 29, 12, 0, 0) / 1000).toString(16);
    expect(header).toBe(`Root=1-${seconds}-000102030405060708090a0b;Parent=0c0d0e0f10111213;Sampled=0`);
  });

  it('pads the seconds to eight hex digits and marks a sampled header', () => {
    expect(newTraceHeader({ now: () => 65_000, randomBytes: counting() }, true)).toMatch(
      /^Root=1-00000041-[0-9a-f]{24};Parent=[0-9a-f]{16};Sampled=1$/,
    );
  });

  it('is valid trace data to the X-Ray SDK, whose trace id reads back unchanged', () => {
    const header = newTraceHeader({ now: Date.now, randomBytes });
    expect(LambdaUtils.validTraceData(header)).toBe(true);
    const data = processTraceData(header);
    expect(data).toMatchObject({ sampled: '0' });
    expect(TraceID.FromString(String(data.root)).toString()).toBe(data.root);
    expect(newTraceHeader({ now: Date.now, randomBytes })).not.toBe(header);
  });
});
