import { SourceHttpError, SourceNetworkError, SourceTimeoutError, SourceTooLargeError } from './errors';

export interface FetchLimits {
  /** Budget for the whole exchange, body included: a body that trickles forever still ends here. */
  timeoutMs: number;
  /** Largest body accepted; counted while streaming, so an oversized body is cut off, never buffered whole. */
  maxBytes: number;
  /** An outer deadline shared by several fetches (the local start's overall live budget). */
  signal?: AbortSignal;
}

/**
 * GETs a URL and returns its body, or throws a typed SourceError: non-2xx status, timeout (connect, headers or
 * body), body over the cap, or a network failure.
 */
export async function fetchBody(url: string, limits: FetchLimits): Promise<Uint8Array> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, limits.timeoutMs);
  const outer = limits.signal;
  const onOuterAbort = () => {
    timedOut = true;
    controller.abort();
  };
  if (outer?.aborted) onOuterAbort();
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  const failure = (error: unknown) =>
    timedOut ? new SourceTimeoutError(url, limits.timeoutMs) : new SourceNetworkError(url, error);
  try {
    let response: Response;
    try {
      response = await fetch(url, { signal: controller.signal, redirect: 'follow' });
    } catch (error) {
      throw failure(error);
    }
    if (!response.ok) {
      controller.abort();
      throw new SourceHttpError(url, response.status);
    }
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (Number.isFinite(declared) && declared > limits.maxBytes) {
      controller.abort();
      throw new SourceTooLargeError(url, limits.maxBytes);
    }
    if (!response.body) return new Uint8Array(0);
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      let step: Awaited<ReturnType<typeof reader.read>>;
      try {
        step = await reader.read();
      } catch (error) {
        throw failure(error);
      }
      if (step.done) break;
      total += step.value.byteLength;
      if (total > limits.maxBytes) {
        controller.abort();
        throw new SourceTooLargeError(url, limits.maxBytes);
      }
      chunks.push(step.value);
    }
    return concat(chunks, total);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes UTF-8 strictly: binary garbage is a format problem, reported by the caller with its own context. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}
