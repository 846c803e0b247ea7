/**
 * What Lambda's Node.js runtime does to `console` before it loads a function, for a process that stands in for it:
 * every console method becomes a writer of one log event per call, in the function's log format.
 * Documented behaviour: https://docs.aws.amazon.com/lambda/latest/dg/nodejs-logging.html
 * (Text: `timestamp<TAB>requestId<TAB>LEVEL<TAB>message`; JSON: an object with timestamp, level, requestId and the
 * message as a string.) AWS's own client, aws-lambda-ric, cannot stand in: it needs Node.js 22 and builds a native
 * addon at install, and its console patch is not exported apart from the runtime loop that starts on import.
 */
import { format } from 'node:util';

/** Lambda's `LoggingConfig.LogFormat`, as the runtime reads it from AWS_LAMBDA_LOG_FORMAT. */
export type LambdaLogFormat = 'Text' | 'JSON';

export const LOG_FORMAT_ENV = 'AWS_LAMBDA_LOG_FORMAT';

type Level = 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'FATAL';

export function logFormatFrom(value: string | undefined): LambdaLogFormat {
  return value?.toUpperCase() === 'JSON' ? 'JSON' : 'Text';
}

/** One console call as the runtime stores it: a single log event, whatever line breaks the message has. */
export function consoleEvent(
  logFormat: LambdaLogFormat,
  at: Date,
  requestId: string,
  level: Level,
  args: unknown[],
): string {
  const [message, ...params] = args;
  if (logFormat === 'Text') return [at.toISOString(), requestId, level, format(message, ...params)].join('\t');
  const event: Record<string, unknown> = { timestamp: at.toISOString(), level, requestId };
  event.message = params.length === 0 && typeof message === 'string' ? message : format(message, ...params);
  const error = args.find((arg): arg is Error => arg instanceof Error);
  if (error) {
    event.errorType = error.name;
    event.errorMessage = error.message;
    event.stackTrace = error.stack?.split('\n') ?? [];
  }
  return JSON.stringify(event);
}

/**
 * Replaces the console methods as the runtime does (`console.log` is `console.info`), each call writing its event
 * through `write` as one line: a line break inside a message becomes a carriage return, so it stays one event.
 */
export function patchConsole(logFormat: LambdaLogFormat, requestId: () => string, write: (line: string) => void) {
  const method =
    (level: Level) =>
    (...args: unknown[]) =>
      write(`${consoleEvent(logFormat, new Date(), requestId(), level, args).replace(/\n/g, '\r')}\n`);
  const target = console as unknown as Record<string, unknown>;
  target.trace = method('TRACE');
  target.debug = method('DEBUG');
  target.info = method('INFO');
  target.warn = method('WARN');
  target.error = method('ERROR');
  target.fatal = method('FATAL');
  target.log = target.info;
}
