/**
 * One line per test layer (jest project) at the end of a run: its tests, files and the time its files took, with
 * its slowest file, so a run of all layers together still shows where the time goes. The lines do not start with
 * `Tests:`, the line .ci/run sums.
 */
const { relative } = require('node:path');

class LayerSummaryReporter {
  constructor() {
    this.layers = new Map();
  }

  onTestResult(test, result) {
    const name = test.context.config.displayName?.name ?? 'tests';
    const layer = this.layers.get(name) ?? {
      files: 0,
      broken: 0,
      passed: 0,
      failed: 0,
      skipped: 0,
      ms: 0,
      slowest: undefined,
    };
    const ms = result.perfStats.runtime;
    layer.files += 1;
    layer.passed += result.numPassingTests;
    if (result.testExecError) layer.broken += 1;
    layer.failed += result.numFailingTests;
    layer.skipped += result.numPendingTests + result.numTodoTests;
    layer.ms += ms;
    const file = relative(test.context.config.rootDir, test.path);
    if (!layer.slowest || ms > layer.slowest.ms) layer.slowest = { file, ms };
    this.layers.set(name, layer);
  }

  onRunComplete() {
    for (const [name, layer] of this.layers) {
      const slowest = layer.slowest ? `; slowest ${layer.slowest.file} ${seconds(layer.slowest.ms)}` : '';
      const broken = layer.broken > 0 ? ` (${layer.broken} of them failed to run)` : '';
      process.stderr.write(
        `Layer ${name}: ${layer.passed} passed, ${layer.failed} failed, ${layer.skipped} skipped in ${layer.files} ${layer.files === 1 ? 'file' : 'files'}${broken}; ${seconds(layer.ms)} in its files${slowest}\n`,
      );
    }
  }
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

module.exports = LayerSummaryReporter;
