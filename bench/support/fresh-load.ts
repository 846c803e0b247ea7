import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';

/** What one fresh process's `require()` of a file took, and the state its young generation was left in. */
export interface FreshLoad {
  /** Wall milliseconds of the `require()`. */
  wall: number;
  /** CPU milliseconds of the whole process (all its threads) over the same span. */
  cpu: number;
  /**
   * The size of V8's young generation (its new space) right after the `require()`, in bytes. V8 doubles it once
   * more than its size has survived its scavenges since it last grew; a load that tips it over pays for the growth
   * and one that stays just under does not, so two bundles can differ by that alone.
   */
  youngBytes: number;
}

/**
 * Loads `file` with `require()` in a fresh node process with Lambda's NODE_OPTIONS (`--enable-source-maps`), as
 * Lambda's Node runtime loads a CommonJS handler.
 */
export function freshLoad(node: string, file: string, env: NodeJS.ProcessEnv): FreshLoad {
  // The young generation is read after the timed span, so reading it costs the load nothing.
  const script =
    `const t=process.hrtime.bigint(),c=process.cpuUsage();require(${JSON.stringify(file)});` +
    'const d=process.cpuUsage(c),w=Number(process.hrtime.bigint()-t)/1e6;' +
    "const y=require('v8').getHeapSpaceStatistics().find((s)=>s.space_name==='new_space');" +
    "process.stdout.write(w+' '+(d.user+d.system)/1e3+' '+(y?y.space_size:NaN))";
  // The child's stderr is piped, so a load that fails throws with it in the message rather than printing it apart.
  const out = execFileSync(node, ['--enable-source-maps', '-e', script], {
    env,
    cwd: tmpdir(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [wall, cpu, youngBytes] = out.toString().split(' ').map(Number);
  return { wall: wall ?? Number.NaN, cpu: cpu ?? Number.NaN, youngBytes: youngBytes ?? Number.NaN };
}
