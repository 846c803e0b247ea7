import { request } from 'node:http';

export interface RawHttpReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent: Node's client neither decompresses them nor rewrites the path. */
  body: Buffer;
}

/**
 * One request over a new loopback connection with the path exactly as given (`/v1/../api/keys` is sent as it is,
 * where fetch would normalize it first) and the body read as raw bytes.
 */
export function rawHttp(
  port: number,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<RawHttpReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, headers: options.headers ?? {}, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
