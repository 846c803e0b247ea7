/**
 * The entry of a child process that stands in for Lambda's Node.js runtime around one built bundle, for tests of
 * what the function's log group stores (lambda-log-process.ts bundles this file and forks it). Before the bundle
 * loads, `console` is patched as the runtime patches it in the log format AWS_LAMBDA_LOG_FORMAT names; every line
 * on stdout is then one stored log event. Invocations arrive over the IPC channel, never on stdout.
 */
import { LOG_FORMAT_ENV, logFormatFrom, patchConsole } from './lambda-console';

export interface InvokeMessage {
  invokeId: number;
  requestId: string;
  event: unknown;
  timeoutMs: number;
}

export type ReplyMessage =
  | { kind: 'ready' }
  | { kind: 'result'; invokeId: number; result: unknown }
  | { kind: 'error'; invokeId: number; errorType: string; errorMessage: string };

type Handler = (event: unknown, context: unknown) => Promise<unknown>;

const logFormat = logFormatFrom(process.env[LOG_FORMAT_ENV]);
let currentRequestId = 'undefined';
const write = (line: string) => process.stdout.write(line);
patchConsole(logFormat, () => currentRequestId, write);

/**
 * The platform's own lines around an invocation, which share the function's log stream: the rules must skip them.
 * Text: `START RequestId: … Version: $LATEST`; JSON: `platform.start` and `platform.runtimeDone` records.
 */
function platformLine(kind: 'start' | 'end', requestId: string): string {
  if (logFormat === 'Text') {
    return kind === 'start' ? `START RequestId: ${requestId} Version: $LATEST\n` : `END RequestId: ${requestId}\n`;
  }
  const type = kind === 'start' ? 'platform.start' : 'platform.runtimeDone';
  const record = kind === 'start' ? { requestId, version: '$LATEST' } : { requestId, status: 'success' };
  return `${JSON.stringify({ time: new Date().toISOString(), type, record })}\n`;
}

const reply = (message: ReplyMessage) => process.send?.(message);

const bundle = process.argv[2];
if (!bundle) throw new Error('usage: lambda-log-runtime <bundle.js>');
const { handler } = require(bundle) as { handler: Handler };

process.on('message', async (message: InvokeMessage) => {
  const { invokeId, requestId, event, timeoutMs } = message;
  const deadline = Date.now() + timeoutMs;
  currentRequestId = requestId;
  write(platformLine('start', requestId));
  let outcome: ReplyMessage;
  try {
    const result = await handler(event, {
      awsRequestId: requestId,
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    });
    outcome = { kind: 'result', invokeId, result };
  } catch (error) {
    const { name, message: text } = error instanceof Error ? error : new Error(String(error));
    outcome = { kind: 'error', invokeId, errorType: name, errorMessage: text };
  }
  // The end line first: the parent takes it as the sign that every line of this invocation has arrived.
  write(platformLine('end', requestId));
  reply(outcome);
});
reply({ kind: 'ready' });
