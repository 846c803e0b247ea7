import { Logger, Metrics, MetricUnit } from '../../lambdas/core/observability';
import { captureStdoutLines } from '../support/stdout-lines';

const capture = () => {
  const lines: string[] = [];
  return { lines, write: (line: string) => lines.push(line), parsed: () => lines.map((l) => JSON.parse(l)) };
};

describe('Logger', () => {
  it('writes one JSON line with level, message, timestamp, service and the extra fields', () => {
    const out = capture();
    new Logger({ serviceName: 'svc', logLevel: 'INFO', write: out.write }).info('usage', {
      accountId: 'a1',
      monthUsed: 3,
    });
    const [line] = out.parsed();
    expect(line).toMatchObject({ level: 'INFO', message: 'usage', service: 'svc', accountId: 'a1', monthUsed: 3 });
    expect(Date.parse(line.timestamp)).not.toBeNaN();
  });

  it('drops lines below its level, and SILENT drops everything', () => {
    const out = capture();
    const warnOnly = new Logger({ logLevel: 'WARN', write: out.write });
    warnOnly.info('no');
    warnOnly.warn('yes');
    new Logger({ logLevel: 'SILENT', write: out.write }).error('no');
    expect(out.parsed().map((l) => l.message)).toEqual(['yes']);
  });

  it('reads POWERTOOLS_LOG_LEVEL at each call when no level is given', () => {
    const out = capture();
    const logger = new Logger({ write: out.write });
    const previous = process.env.POWERTOOLS_LOG_LEVEL;
    try {
      process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
      logger.warn('hidden');
      process.env.POWERTOOLS_LOG_LEVEL = 'debug';
      logger.debug('shown');
    } finally {
      process.env.POWERTOOLS_LOG_LEVEL = previous;
    }
    expect(out.parsed().map((l) => l.message)).toEqual(['shown']);
  });

  it('serializes errors with name, message and stack', () => {
    const out = capture();
    new Logger({ logLevel: 'INFO', write: out.write }).error('failed', { error: new RangeError('bad') });
    expect(out.parsed()[0].error).toMatchObject({ name: 'RangeError', message: 'bad' });
    expect(out.parsed()[0].error.stack).toContain('RangeError: bad');
  });

  it('serializes the error an error wraps, so a wrapper names its cause', () => {
    const out = capture();
    const refused = Object.assign(new Error('User is not authorized'), { name: 'AccessDeniedException' });
    new Logger({ logLevel: 'INFO', write: out.write }).error('failed', {
      error: new Error('read failed', { cause: refused }),
    });
    expect(out.parsed()[0].error).toMatchObject({
      message: 'read failed',
      cause: { name: 'AccessDeniedException', message: 'User is not authorized' },
    });
  });
});

describe('Metrics (EMF)', () => {
  it('publishes one EMF line with the service dimension, added dimensions and every metric', () => {
    const out = capture();
    const metrics = new Metrics({ namespace: 'fxrates', serviceName: 'fxrates', write: out.write, disabled: false });
    metrics.addDimension('plan', 'Pro');
    metrics.addMetric('Admitted', MetricUnit.Count, 1);
    metrics.addMetric('Latency', MetricUnit.Milliseconds, 12);
    metrics.publishStoredMetrics(1_795_000_000_000);
    expect(out.parsed()).toEqual([
      {
        _aws: {
          Timestamp: 1_795_000_000_000,
          CloudWatchMetrics: [
            {
              Namespace: 'fxrates',
              Dimensions: [['service', 'plan']],
              Metrics: [
                { Name: 'Admitted', Unit: 'Count' },
                { Name: 'Latency', Unit: 'Milliseconds' },
              ],
            },
          ],
        },
        service: 'fxrates',
        plan: 'Pro',
        Admitted: 1,
        Latency: 12,
      },
    ]);
  });

  it('clears metrics and dimensions after publishing, and publishes nothing when empty', () => {
    const out = capture();
    const metrics = new Metrics({ write: out.write, disabled: false });
    metrics.addDimension('plan', 'Free').addMetric('Admitted', MetricUnit.Count, 1);
    metrics.publishStoredMetrics();
    metrics.publishStoredMetrics();
    metrics.addMetric('InvalidKey', MetricUnit.Count, 1);
    metrics.publishStoredMetrics();
    const lines = out.parsed();
    expect(lines).toHaveLength(2);
    expect(lines[1]._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service']]);
    expect(lines[1].plan).toBeUndefined();
  });

  it('publishes a single metric at once with its own dimensions, leaving stored ones alone', () => {
    const out = capture();
    const metrics = new Metrics({ write: out.write, disabled: false });
    metrics.addMetric('DaysWritten', MetricUnit.Count, 3);
    metrics.singleMetric().addDimension('source', 'ecb').addMetric('SourceFailures', MetricUnit.Count, 1);
    expect(out.parsed()).toEqual([expect.objectContaining({ source: 'ecb', SourceFailures: 1 })]);
    metrics.publishStoredMetrics();
    expect(out.parsed()[1]).toMatchObject({ DaysWritten: 3 });
    expect(out.parsed()[1].source).toBeUndefined();
  });

  it('writes nothing when POWERTOOLS_METRICS_DISABLED is true', () => {
    const out = capture();
    const previous = process.env.POWERTOOLS_METRICS_DISABLED;
    process.env.POWERTOOLS_METRICS_DISABLED = 'true';
    try {
      const metrics = new Metrics({ write: out.write });
      metrics.addMetric('Admitted', MetricUnit.Count, 1);
      metrics.publishStoredMetrics();
    } finally {
      process.env.POWERTOOLS_METRICS_DISABLED = previous;
    }
    expect(out.lines).toEqual([]);
  });
});

describe('the default writer', () => {
  it('writes each log and EMF line whole to stdout itself, never through console (which Lambda prefixes)', () => {
    const viaConsole = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
      jest.spyOn(console, method).mockImplementation(() => {}),
    );
    const stdout = captureStdoutLines();
    try {
      new Logger({ logLevel: 'INFO' }).warn('store unavailable', { accountId: 'a1' });
      const metrics = new Metrics({ disabled: false });
      metrics.addMetric('Requests', MetricUnit.Count, 1).publishStoredMetrics(1_795_000_000_000);
    } finally {
      stdout.restore();
      for (const spy of viaConsole) spy.mockRestore();
    }
    expect(viaConsole.map((spy) => spy.mock.calls.length)).toEqual([0, 0, 0, 0, 0]);
    expect(stdout.lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: 'WARN', message: 'store unavailable', accountId: 'a1' }),
      expect.objectContaining({ _aws: expect.objectContaining({ Timestamp: 1_795_000_000_000 }), Requests: 1 }),
    ]);
  });
});
