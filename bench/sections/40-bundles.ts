/**
 * Per function: bundle size (minified, from the esbuild metafile, built with the very options the CDK construct
 * uses) and init time (median `require()` of the bundle in fresh node processes), next to the same figures for
 * a floor bundle that imports only DynamoDBDocumentClient, all measured in this run, round-robin. A second
 * reference, the floor with the store client built as the functions build it, shows how much of their ratio the
 * first client's construction takes.
 * Budgets: every bundle under 300 KB, every init time under 1.25 × the floor (judged per round, see `pairedRatio`).
 * The aim, printed beside the budget, is tighter: 1.15 × for the authorizer and the public endpoints, which
 * answer API clients, and 1.2 × for the rest. Each paired ratio comes with a 95 % confidence interval, since one
 * function's ratio moves by 0.02 to 0.05 between runs: a function is surely within the aim (or over it) only when
 * the whole interval is.
 * `BUNDLES=latest,authorizer npm run bench -- bundles` measures only those functions (and the references), for iterating.
 * `BENCH_BUNDLE_ROUNDS=<n>` measures n rounds instead of 61.
 * `BENCH_NODE=<a node binary>` loads the bundles with that Node instead of the one running the bench: Lambda's runtime
 * is Node 22 (BUNDLE_OPTIONS.target), and a different major parses, compiles and maps sources at other costs.
 * Each row also gives the size of V8's young generation after the load: a bundle whose load grows it pays 1 to
 * 2.5 ms more than one that stays just under the threshold (docs/clever-parts.md, "A larger young generation at init").
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import {
  BUNDLE_OPTIONS,
  esbuildOptions,
  FUNCTION_NAMES,
  type FunctionName,
  isRoute,
  PROJECT_ROOT,
  sharedEsbuildOptions,
} from '../../lib/bundling';
import { median, medianInterval } from '../stats';
import { freshLoad } from '../support/fresh-load';

const SIZE_BUDGET_BYTES = 300 * 1024;
const INIT_BUDGET_RATIO = 1.25;
const INIT_AIM_RATIO = { clientFacing: 1.15, other: 1.2 } as const;
/**
 * 61 rather than 41 by default: on a shared machine one bundle's paired ratio still moves by 0.02 to 0.05 between
 * runs. BENCH_BUNDLE_ROUNDS asks for more where a ratio's interval must be narrower: it shrinks as 1/√rounds.
 */
function benchRounds(value = process.env.BENCH_BUNDLE_ROUNDS): number {
  if (value === undefined || value === '') return 61;
  const rounds = Number(value);
  if (!Number.isInteger(rounds) || rounds < 1) {
    throw new Error(`BENCH_BUNDLE_ROUNDS must be a whole number of rounds, at least 1, not '${value}'`);
  }
  return rounds;
}
const FLOOR = 'floor' as const;
const FLOOR_SOURCE = "export { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';";
/**
 * A second reference, judged by no budget: the floor plus the store client that the endpoints (but `quota`), the
 * dashboard's routes and the authorizer build at load, built as they build it. Its ratio is the part of theirs that
 * the first client's construction takes.
 */
const CLIENT = 'client' as const;
const CLIENT_SOURCE =
  "import { documentClient } from './lambdas/core/store/clients';\nexport const client = documentClient();";
const REFERENCES = { [FLOOR]: FLOOR_SOURCE, [CLIENT]: CLIENT_SOURCE } as const;
type Reference = keyof typeof REFERENCES;
const isReference = (name: string): name is Reference => Object.hasOwn(REFERENCES, name);

interface Bundle {
  name: string;
  file: string;
  bytes: number;
  /** Largest contributors by package, in output bytes. */
  top: [string, number][];
}

async function bundle(name: FunctionName | Reference, outDir: string): Promise<Bundle> {
  const file = join(outDir, name, 'index.js');
  const result = await build(
    isReference(name)
      ? {
          ...sharedEsbuildOptions(file),
          stdin: { contents: REFERENCES[name], resolveDir: PROJECT_ROOT, loader: 'ts', sourcefile: `${name}.ts` },
        }
      : esbuildOptions(name, file),
  );
  const output = outputOf(result.metafile, file);
  return { name, file, bytes: output.bytes, top: contributors(output) };
}

function outputOf(metafile: Metafile | undefined, file: string): Metafile['outputs'][string] {
  const entry = Object.entries(metafile?.outputs ?? {}).find(([path]) => file.endsWith(path.replace(/^(\.\.\/)+/, '')));
  if (!entry) throw new Error(`esbuild wrote no metafile entry for ${file}`);
  return entry[1];
}

function contributors(output: Metafile['outputs'][string]): [string, number][] {
  const byPackage = new Map<string, number>();
  for (const [path, input] of Object.entries(output.inputs)) {
    const pkg =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? (path.startsWith('lambdas/') ? 'lambdas/' : path);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + input.bytesInOutput);
  }
  return [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 3);
}

/** The Node that loads the bundles: BENCH_NODE when set (it must run), else the one running the bench. */
function benchNode(binary = process.env.BENCH_NODE): { path: string; version: string } {
  const path = binary || process.execPath;
  try {
    return { path, version: execFileSync(path, ['--version']).toString().trim() };
  } catch (cause) {
    throw new Error(`BENCH_NODE does not run: ${path}`, { cause });
  }
}

/** The target's Node major (`node22`), which lib/fxrates-function.ts pins as the Lambda runtime. */
const LAMBDA_NODE_MAJOR = Number(/^node(\d+)$/.exec(BUNDLE_OPTIONS.target)?.[1]);

/** The functions to measure: all, or those named in BUNDLES (comma-separated); an unknown name is an error. */
function selectedFunctions(list = process.env.BUNDLES): readonly FunctionName[] {
  if (!list) return FUNCTION_NAMES;
  const names = list.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !FUNCTION_NAMES.includes(name as FunctionName));
  if (unknown.length > 0) throw new Error(`BUNDLES names no function: ${unknown.join(', ')}`);
  return names as FunctionName[];
}

/** The authorizer and the public endpoints start on an API client's request; the rest serve the dashboard or a schedule. */
function initAim(name: FunctionName): number {
  const clientFacing = name === 'authorizer' || isRoute(name);
  return clientFacing ? INIT_AIM_RATIO.clientFacing : INIT_AIM_RATIO.other;
}

/**
 * The median over rounds of (this bundle's time / the floor's time in the same round). Load on a shared machine
 * comes in spells that slow a whole round; a ratio within one round cancels them, where a ratio of two medians
 * taken over different processes does not. The budget is judged on this figure; the plain ratio is printed too.
 */
const roundRatios = (samples: number[], floor: number[]): number[] =>
  samples.map((ms, i) => ms / (floor[i] ?? Number.NaN));
const pairedRatio = (samples: number[], floor: number[]): number => median(roundRatios(samples, floor));

/**
 * The same pairing as a difference: the median over rounds of (this bundle's time − the floor's). A cost both pay
 * (a flag, the SDK's part of a source map) moves the ratio when it changes, not this.
 */
const roundExcesses = (samples: number[], floor: number[]): number[] =>
  samples.map((ms, i) => ms - (floor[i] ?? Number.NaN));
const pairedExcess = (samples: number[], floor: number[]): number => median(roundExcesses(samples, floor));

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const signedMs = (ms: number) => `${ms >= 0 ? '+' : ''}${ms.toFixed(1)} ms`;
const msInterval = ([low, high]: [number, number]) => `${low.toFixed(1)} to ${high.toFixed(1)}`;

export default async function bundles(): Promise<void> {
  // Outside the repository, so a bundle cannot quietly resolve a package from node_modules at require time.
  const outDir = mkdtempSync(join(tmpdir(), 'fxrates-bundles-'));
  try {
    const selected = selectedFunctions();
    const rounds = benchRounds();
    const node = benchNode();
    const built = await Promise.all([FLOOR, CLIENT, ...selected].map((name) => bundle(name, outDir)));
    // What the module scope of a handler may read at load time on Lambda; no network is touched.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'bench',
      AWS_SECRET_ACCESS_KEY: 'bench',
      RATES_TABLE_NAME: 'rates',
      ACCOUNTS_TABLE_NAME: 'accounts',
      SOURCES: 'ecb,currency-api',
      POWERTOOLS_SERVICE_NAME: 'fxrates',
      POWERTOOLS_METRICS_NAMESPACE: 'fxrates',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    };
    // Round-robin, so load on the machine affects every bundle alike.
    const times = new Map<string, number[]>(built.map((b) => [b.name, []]));
    const cpuTimes = new Map<string, number[]>(built.map((b) => [b.name, []]));
    const youngSizes = new Map<string, number[]>(built.map((b) => [b.name, []]));
    for (let run = 0; run < rounds; run++) {
      for (const b of built) {
        const { wall, cpu, youngBytes } = freshLoad(node.path, b.file, env);
        times.get(b.name)?.push(wall);
        cpuTimes.get(b.name)?.push(cpu);
        youngSizes.get(b.name)?.push(youngBytes);
      }
    }
    const floor = built.find((b) => b.name === FLOOR);
    const floorTimes = times.get(FLOOR) ?? [];
    const floorCpu = cpuTimes.get(FLOOR) ?? [];
    const floorMs = median(floorTimes);
    const major = Number(/^v(\d+)/.exec(node.version)?.[1]);
    const runtimeNote =
      major === LAMBDA_NODE_MAJOR
        ? `Lambda's major`
        : `Lambda runs Node ${LAMBDA_NODE_MAJOR}; BENCH_NODE=<a Node ${LAMBDA_NODE_MAJOR} binary> measures on it`;
    const young = (name: string) => mib(median(youngSizes.get(name) ?? []));
    console.log(
      `${rounds} fresh processes per bundle (node ${node.version} --enable-source-maps, ${runtimeNote}); ` +
        `floor = DynamoDBDocumentClient only: ${kb(floor?.bytes ?? 0)}, init ${floorMs.toFixed(1)} ms, ` +
        `young generation after the load ${young(FLOOR)}`,
    );
    const client = built.find((b) => b.name === CLIENT);
    const clientTimes = times.get(CLIENT) ?? [];
    console.log(
      `client = the floor and the store client built as the functions build it at load: ${kb(client?.bytes ?? 0)}, ` +
        `init ${median(clientTimes).toFixed(1)} ms, paired ${pairedRatio(clientTimes, floorTimes).toFixed(2)} ` +
        `(cpu paired ${pairedRatio(cpuTimes.get(CLIENT) ?? [], floorCpu).toFixed(2)}), ` +
        `young generation ${young(CLIENT)}; the part of each function's ratio that its first client takes`,
    );
    console.log(
      'function     bundle      size budget   init (median)  × floor  paired      95 % CI  over floor        95 % CI' +
        '  init budget        aim  cpu paired  young gen  largest parts',
    );
    let within = 0;
    let withinAim = 0;
    // Judged on the interval instead of the median: the whole interval at or under the aim, or the whole over it.
    let surelyWithin = 0;
    let surelyOver = 0;
    for (const b of built.filter((x): x is Bundle & { name: FunctionName } => !isReference(x.name))) {
      const samples = times.get(b.name) ?? [];
      const ms = median(samples);
      const ratio = pairedRatio(samples, floorTimes);
      const sizeOk = b.bytes < SIZE_BUDGET_BYTES;
      const initOk = ratio < INIT_BUDGET_RATIO;
      if (sizeOk && initOk) within++;
      const aim = initAim(b.name);
      if (ratio <= aim) withinAim++;
      const [low, high] = medianInterval(roundRatios(samples, floorTimes));
      if (high <= aim) surelyWithin++;
      if (low > aim) surelyOver++;
      console.log(
        [
          b.name.padEnd(12),
          kb(b.bytes).padStart(9),
          (sizeOk ? 'ok' : 'OVER').padStart(13),
          `${ms.toFixed(1)} ms`.padStart(15),
          (ms / floorMs).toFixed(2).padStart(8),
          ratio.toFixed(2).padStart(8),
          `${low.toFixed(3)}–${high.toFixed(3)}`.padStart(13),
          signedMs(pairedExcess(samples, floorTimes)).padStart(12),
          msInterval(medianInterval(roundExcesses(samples, floorTimes))).padStart(15),
          (initOk ? 'ok' : 'OVER').padStart(12),
          `${aim.toFixed(2)} ${ratio <= aim ? 'ok' : 'OVER'}`.padStart(11),
          pairedRatio(cpuTimes.get(b.name) ?? [], floorCpu)
            .toFixed(2)
            .padStart(12),
          young(b.name).padStart(11),
          `  ${b.top.map(([name, bytes]) => `${name} ${kb(bytes)}`).join(', ')}`,
        ].join(''),
      );
    }
    console.log(
      `budgets: size < ${kb(SIZE_BUDGET_BYTES)}, init < ${INIT_BUDGET_RATIO} × floor (${(floorMs * INIT_BUDGET_RATIO).toFixed(1)} ms); ` +
        `${within}/${selected.length} functions within both; ${withinAim}/${selected.length} within the aim ` +
        `(${INIT_AIM_RATIO.clientFacing} × for the authorizer and the public endpoints, ${INIT_AIM_RATIO.other} × for the rest), ` +
        `${surelyWithin} with the whole 95 % interval within it, ${surelyOver} with the whole interval over it and ` +
        `${selected.length - surelyWithin - surelyOver} undecided at this precision; ` +
        'each "95 % CI" bounds the figure before it (the median of the rounds\' ratios or differences) without ' +
        'assuming their distribution; ' +
        '"over floor" is the paired difference in ms; "cpu paired" is the paired ratio over CPU time, a check on the ' +
        'wall figure when the machine is busy; "young gen" is the median size of V8\'s young generation after the ' +
        'load, larger where the load grew it',
    );
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
