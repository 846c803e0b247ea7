import { parseCrossCheckExempt, parseSourceList } from '../../../lambdas/core/ingest/fetchers';
import type { IngestResult } from '../../../lambdas/core/ingest/ingest';
import { Metrics } from '../../../lambdas/core/observability';
import { ingestMode, publishIngestMetrics, seriesRebuildRequested } from '../../../lambdas/ingest/handler';
import { captureStdoutLines } from '../../support/stdout-lines';

interface Emf {
  _aws: {
    CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[];
  };
  [key: string]: unknown;
}

function captureEmf(run: (metrics: Metrics) => void): Emf[] {
  // singleMetric() builds a new instance that reads the switch again, so it stays on for the whole run.
  const previous = process.env.POWERTOOLS_METRICS_DISABLED;
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  const stdout = captureStdoutLines();
  try {
    run(new Metrics({ namespace: 'fxrates', serviceName: 'fxrates' }));
    return stdout.lines.map((line) => JSON.parse(line) as Emf);
  } finally {
    stdout.restore();
    process.env.POWERTOOLS_METRICS_DISABLED = previous;
  }
}

const result = (overrides: Partial<IngestResult> = {}): IngestResult => ({
  status: 'partial',
  daysWritten: 3,
  daysUnchanged: 60,
  latestWritten: true,
  itemsWritten: 4,
  seriesWrites: 5,
  rejections: [{ date: '2026-09-29', reason: 'jump', code: 'SEK', detail: 'x' }],
  sources: {
    ecb: { status: 'failed', days: 0, error: 'HTTP 503', warnings: [] },
    'currency-api': { status: 'ok', days: 4, warnings: [] },
  },
  crossChecks: {},
  latest: { date: '2026-09-29', publishedAt: '2026-09-29T00:00:00Z', currencies: 158 },
  durationMs: 10,
  ...overrides,
});

describe('publishIngestMetrics', () => {
  it('emits the run figures in the fxrates namespace with the snapshot age in seconds', () => {
    const now = new Date('2026-09-29T06:30:00Z');
    const lines = captureEmf((metrics) => publishIngestMetrics(metrics, result(), now));
    const run = lines.find((l) => 'DaysWritten' in l);
    expect(run).toMatchObject({ DaysWritten: 3, Rejections: 1, CurrenciesServed: 158, SnapshotAgeSeconds: 6.5 * 3600 });
    expect(run?._aws.CloudWatchMetrics[0]?.Namespace).toBe('fxrates');
    const units = Object.fromEntries(run?._aws.CloudWatchMetrics[0]?.Metrics.map((m) => [m.Name, m.Unit]) ?? []);
    expect(units.SnapshotAgeSeconds).toBe('Seconds');
  });

  it('emits SourceFailures per source with a source dimension: 1 for a failed source, 0 for a healthy one', () => {
    const lines = captureEmf((metrics) => publishIngestMetrics(metrics, result(), new Date()));
    const failures = lines.filter((l) => 'SourceFailures' in l);
    expect(failures.map((l) => [l.source, l.SourceFailures]).sort()).toEqual([
      ['currency-api', 0],
      ['ecb', 1],
    ]);
    expect(failures[0]?._aws.CloudWatchMetrics[0]?.Dimensions[0]).toContain('source');
  });

  it('emits CrossCheckOverTolerance per cross-checked source, leaving out the quotes of exempt currencies', () => {
    const check = { date: '2026-03-04', tolerance: 0.05, compared: 40, maxSpread: 0.958, worst: null };
    const crossChecks: IngestResult['crossChecks'] = {
      nbp: { ...check, overTolerance: 1, exempt: 1 },
      nbu: { ...check, overTolerance: 3, exempt: 1 },
      cnb: { ...check, overTolerance: 0 },
    };
    const lines = captureEmf((metrics) => publishIngestMetrics(metrics, result({ crossChecks }), new Date()));
    const counts = lines.filter((l) => 'CrossCheckOverTolerance' in l);
    expect(counts.map((l) => [l.source, l.CrossCheckOverTolerance]).sort()).toEqual([
      ['cnb', 0],
      ['nbp', 0],
      ['nbu', 2],
    ]);
  });

  it('leaves out age and currencies while nothing was ever ingested', () => {
    const lines = captureEmf((metrics) =>
      publishIngestMetrics(metrics, result({ latest: undefined, status: 'failed' }), new Date()),
    );
    const run = lines.find((l) => 'DaysWritten' in l);
    expect(run).toBeDefined();
    expect(run).not.toHaveProperty('SnapshotAgeSeconds');
    expect(run).not.toHaveProperty('CurrenciesServed');
  });

  it.each([
    ['ok', 1],
    ['partial', 1],
    ['failed', 0],
  ] as const)('beats the heartbeat SuccessfulRuns for a run that is %s with %d', (status, beat) => {
    const lines = captureEmf((metrics) => publishIngestMetrics(metrics, result({ status }), new Date()));
    const runs = lines.filter((l) => 'SuccessfulRuns' in l);
    expect(runs.map((l) => l.SuccessfulRuns)).toEqual([beat]);
    expect(runs[0]?._aws.CloudWatchMetrics[0]?.Metrics).toContainEqual({ Name: 'SuccessfulRuns', Unit: 'Count' });
  });
});

describe('ingestion event and configuration', () => {
  it('runs the scheduled mode for EventBridge events and the history mode on request', () => {
    expect(ingestMode({ 'detail-type': 'Scheduled Event', source: 'aws.events' })).toBe('scheduled');
    expect(ingestMode(undefined)).toBe('scheduled');
    expect(ingestMode({ mode: 'history' })).toBe('history');
    expect(() => ingestMode({ mode: 'everything' })).toThrow(/mode/);
  });

  it('runs {"mode": "series"} as a scheduled run that rebuilds the time series items first', () => {
    expect(ingestMode({ mode: 'series' })).toBe('scheduled');
    expect(seriesRebuildRequested({ mode: 'series' })).toBe(true);
    expect(seriesRebuildRequested({ mode: 'history' })).toBe(false);
    expect(seriesRebuildRequested(undefined)).toBe(false);
    expect(() => seriesRebuildRequested({ mode: 'Series' })).toThrow(/"scheduled", "history" or "series"/);
  });

  it('parses SOURCES and refuses unknown or empty lists', () => {
    expect(parseSourceList('ecb, currency-api')).toEqual(['ecb', 'currency-api']);
    expect(parseSourceList('currency-api')).toEqual(['currency-api']);
    expect(() => parseSourceList('ecb,fed')).toThrow(/SOURCES/);
    expect(() => parseSourceList(' , ')).toThrow(/SOURCES/);
  });
});

describe('the exempt currencies of the cross-check', () => {
  it('reads ISO codes separated by commas, once each, and none as no exemption', () => {
    expect(parseCrossCheckExempt('CUP,LBP')).toEqual(['CUP', 'LBP']);
    expect(parseCrossCheckExempt('CUP, VES,CUP')).toEqual(['CUP', 'VES']);
    expect(parseCrossCheckExempt('none')).toEqual([]);
  });

  it.each(['cup', 'CUP;LBP', 'CUPS', ''])('refuses %j, naming the variable', (text) => {
    expect(() => parseCrossCheckExempt(text)).toThrow(/CROSS_CHECK_EXEMPT/);
  });
});
