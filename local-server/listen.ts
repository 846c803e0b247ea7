import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Binds `server` and resolves with the port it got (port 0 asks for any free one), or rejects with the bind error. */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
