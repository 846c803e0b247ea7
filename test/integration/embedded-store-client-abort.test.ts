/**
 * A client that goes away before its request's body is whole (an admin CLI killed mid-call, say) leaves the embedded
 * store serving: dynalite on its own rethrows the request stream's error, which ended the store's thread.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createDocumentClient } from '../../lambdas/core/store/clients';
import { type EmbeddedStore, openEmbeddedStore } from '../../local-server/embedded-store';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fxrates-client-abort-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Sends a request's head and part of its body, once the store has begun the request, and goes away. */
async function leaveMidBody(port: number): Promise<void> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  // Node's server answers `100 Continue` as it hands the request to the store's listener.
  const handedOver = new Promise((resolve) => socket.once('data', resolve));
  socket.write(
    'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\nExpect: 100-continue\r\n' +
      'X-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: 100\r\n\r\n',
  );
  expect(String(await handedOver)).toMatch(/^HTTP\/1\.1 100 Continue/);
  // Part of the body; the other 99 bytes never come.
  socket.write('{');
  await new Promise((resolve) => setTimeout(resolve, 50));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  socket.destroy();
  await closed;
}

it.each([
  ['in memory', () => openEmbeddedStore()],
  ['on disk', () => openEmbeddedStore({ path: join(dir, 'level') })],
])('keeps answering after a client leaves mid-body (%s)', async (_, open) => {
  const store: EmbeddedStore = await open();
  try {
    for (let i = 0; i < 3; i++) await leaveMidBody(store.port);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const out = await createDocumentClient(store.endpoint).send(new ListTablesCommand({}));
    expect(out.TableNames).toEqual([]);
  } finally {
    await store.close();
  }
});
