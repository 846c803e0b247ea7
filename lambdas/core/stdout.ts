/** Where log and EMF lines go: observability.ts writes logs, emf.ts metrics, both through `stdout` by default. */
export type Write = (line: string) => void;

/**
 * Never through `console`: Lambda's runtime prefixes its lines (`timestamp<TAB>requestId<TAB>INFO<TAB>`), so they
 * would no longer be the JSON that Contributor Insights, Logs Insights and EMF read. `process.stdout` is not patched,
 * which keeps the default Text log format. The stream is read at the first write, not at import.
 */
export const stdout: Write = (line) => {
  process.stdout.write(`${line}\n`);
};
