/** Where log and EMF lines go: observability.ts writes logs, emf.ts metrics, both through `stdout` by default. */
export type Write = (line: string) => void;

/**
 * Each line goes to stdout whole, through the stream itself and never through `console`. In its default Text log
 * format, Lambda's Node.js runtime replaces `console.log` with a writer that prefixes every line with
 * `timestamp<TAB>requestId<TAB>INFO<TAB>` (and in its JSON log format wraps the line as a string in `message`), so
 * the stored event would no longer be the JSON object that the Contributor Insights rules (`LogFormat: JSON`,
 * `$.accountId`), the Logs Insights queries and Embedded Metric Format read. `process.stdout` is not patched:
 * Lambda stores each line written there as one log event, as it is (Powertools writes through a console of its own
 * on process.stdout for the same reason). This keeps the functions on the default Text log format, where every
 * other output (the SDK's warnings, an uncaught error) stays readable, and needs no setting on the functions.
 * The stream is read at the first write, not at import, so loading a bundle costs nothing more.
 */
export const stdout: Write = (line) => {
  process.stdout.write(`${line}\n`);
};
