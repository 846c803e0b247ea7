/**
 * Errors that stop the local server from starting, worded for the person who ran `npm start`: what is wrong, where,
 * why (the underlying error's own code and message), and what to do. `bin/serve.ts` prints their message without a
 * stack trace. Each message's first line says what is wrong; a second line, when there is one, what to do.
 */
import { userInfo } from 'node:os';
import { recoveryAdvice } from './store-integrity';

/** Names of the errors `bin/serve.ts` shows as a message alone (names survive the store thread's boundary). */
export const STARTUP_ERROR_NAMES: ReadonlySet<string> = new Set([
  'StartupError',
  'DataDirInUseError',
  'StoreDamagedError',
  'StoreOpenError',
]);

/** A start-up problem the user can act on. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

interface Link {
  code?: string;
  message: string;
}

/** The chain of an error and its causes (`error.cause`), outermost first. */
export function causeChain(error: unknown): Link[] {
  const chain: Link[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current !== undefined && current !== null && !seen.has(current) && chain.length < 10) {
    seen.add(current);
    if (typeof current === 'object') {
      const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
      chain.push({
        ...(typeof code === 'string' ? { code } : {}),
        message: typeof message === 'string' ? message : String(current),
      });
      current = cause;
    } else {
      chain.push({ message: String(current) });
      current = undefined;
    }
  }
  return chain;
}

/** The codes anywhere in an error's cause chain. */
export function causeCodes(error: unknown): string[] {
  return causeChain(error).flatMap((link) => (link.code ? [link.code] : []));
}

/**
 * The innermost cause, as "message (CODE)": LevelDB's "Database failed to open" says nothing, its cause says which
 * file and why.
 */
export function describeCause(error: unknown): string {
  const chain = causeChain(error);
  const innermost = chain.at(-1);
  if (!innermost) return String(error);
  const message = innermost.message.trim() || chain.find((link) => link.message.trim())?.message || 'unknown error';
  return innermost.code && !message.includes(innermost.code) ? `${message} (${innermost.code})` : message;
}

function currentUser(): string {
  try {
    return userInfo().username;
  } catch {
    return `uid ${process.getuid?.() ?? 'unknown'}`;
  }
}

/** What to do about a failed file operation, by its code; undefined when nothing better than the cause comes to mind. */
export function adviceFor(codes: readonly string[], path: string, dataDir: string): string | undefined {
  const has = (code: string) => codes.includes(code);
  if (has('LEVEL_LOCKED')) {
    return 'Another process holds the store open (an admin command, or a server of an older version); stop it first.';
  }
  if (has('LEVEL_CORRUPTION')) return `Nothing was changed. ${recoveryAdvice(dataDir)}`;
  if (has('EACCES') || has('EPERM')) {
    return `This process runs as ${currentUser()}, who may not read or write there: check the owner and permissions of ${path} (or set FXRATES_DATA_DIR to a directory of your own).`;
  }
  if (has('ENOTDIR') || has('EEXIST')) {
    return `A file is where a directory should be: move it aside, or set FXRATES_DATA_DIR to another directory.`;
  }
  if (has('ENOSPC')) return 'The disk is full: free some space and start again.';
  if (has('EROFS')) return 'The file system is read-only: set FXRATES_DATA_DIR to a writable directory.';
  return undefined;
}

/** The data directory itself cannot be created or written. */
export class DataDirError extends StartupError {
  constructor(dataDir: string, cause: unknown) {
    const advice = adviceFor(causeCodes(cause), dataDir, dataDir);
    super(`The data directory ${dataDir} cannot be used: ${describeCause(cause)}.${advice ? `\n${advice}` : ''}`);
    this.cause = cause;
  }
}

/** The embedded store cannot be opened (LevelDB refused, or its directory cannot be made). */
export class StoreOpenError extends Error {
  readonly code: string | undefined;
  constructor(path: string, dataDir: string, cause: unknown) {
    const codes = causeCodes(cause);
    const advice = adviceFor(codes, path, dataDir);
    super(`The local store at ${path} cannot be opened: ${describeCause(cause)}.${advice ? `\n${advice}` : ''}`);
    this.name = 'StoreOpenError';
    this.code = codes.at(-1);
    this.cause = cause;
  }
}

/** Formats a host for a URL: an IPv6 address goes in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Why the server could not listen on `host`:`port`, worded for PORT and HOST. `holder` names an fxrates server
 * known to listen there.
 */
export function listenError(error: unknown, port: number, host: string, holder?: string): StartupError {
  const codes = causeCodes(error);
  if (codes.includes('EADDRINUSE')) {
    return new StartupError(
      `Port ${port} on ${host} is already in use (${holder ?? 'by another program'}); stop it or set PORT to a free port.`,
    );
  }
  if (codes.includes('EACCES')) {
    return new StartupError(
      `Port ${port} on ${host} may not be used by this process (ports below 1024 need privileges); set PORT to 1024 or above.`,
    );
  }
  if (codes.some((code) => ['EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME'].includes(code))) {
    return new StartupError(
      `HOST '${host}' is not an address of this machine (${describeCause(error)}); set HOST to 127.0.0.1, or to an address one of its network interfaces has.`,
    );
  }
  return new StartupError(`fxrates cannot listen on ${host} port ${port}: ${describeCause(error)}.`);
}
