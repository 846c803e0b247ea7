import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { RemoteCallError, RpcClient, serveRpc } from '../../../local-server/port-rpc';

describe('calls between threads over a message port', () => {
  const open: MessagePort[] = [];
  afterEach(() => {
    for (const port of open.splice(0)) port.close();
  });

  function connect(methods: Parameters<typeof serveRpc>[1]): RpcClient {
    const { port1, port2 } = new MessageChannel();
    open.push(port1, port2);
    serveRpc(port2, methods);
    return new RpcClient(port1);
  }

  it('answers each call with its own method result, also when answers arrive out of order', async () => {
    const rpc = connect({
      slow: async (n: number) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return n * 2;
      },
      fast: (text: string) => text.toUpperCase(),
    });
    const slow = rpc.call<number>('slow', 21);
    const fast = rpc.call<string>('fast', 'abc');
    await expect(fast).resolves.toBe('ABC');
    await expect(slow).resolves.toBe(42);
  });

  it('rejects with the name and message of the error thrown on the other side', async () => {
    const rpc = connect({
      refuse: () => {
        const error = new Error('the store is full');
        error.name = 'StoreFullError';
        throw error;
      },
    });
    const failure = await rpc.call('refuse').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RemoteCallError);
    expect(failure).toMatchObject({ name: 'StoreFullError', message: 'the store is full' });
  });

  it("carries the error's code and its chain of causes, so a message can name the cause found on the other side", async () => {
    const rpc = connect({
      open: () => {
        const cause = Object.assign(new Error('IO error: /d/LOCK: Permission denied'), { code: 'LEVEL_IO_ERROR' });
        throw Object.assign(new Error('Database failed to open', { cause }), { code: 'LEVEL_DATABASE_NOT_OPEN' });
      },
    });
    const failure = (await rpc.call('open').catch((error: unknown) => error)) as RemoteCallError;
    expect(failure).toMatchObject({ message: 'Database failed to open', code: 'LEVEL_DATABASE_NOT_OPEN' });
    expect(failure.cause).toBeInstanceOf(RemoteCallError);
    expect(failure.cause).toMatchObject({ message: 'IO error: /d/LOCK: Permission denied', code: 'LEVEL_IO_ERROR' });
  });

  it('rejects a call to a method the other side does not serve, and keeps serving the others', async () => {
    const rpc = connect({ ping: () => 'pong' });
    await expect(rpc.call('missing')).rejects.toThrow("no method 'missing' on this thread");
    await expect(rpc.call('ping')).resolves.toBe('pong');
  });

  it('rejects calls in flight and every later call once the other side is known to be gone', async () => {
    const rpc = connect({ never: () => new Promise(() => undefined) });
    const inFlight = rpc.call('never');
    const gone = new Error('the store-thread thread exited with code 1');
    rpc.fail(gone);
    await expect(inFlight).rejects.toBe(gone);
    await expect(rpc.call('never')).rejects.toBe(gone);
  });

  it('rejects a call whose payload cannot be cloned, and the next call is answered', async () => {
    const rpc = connect({ echo: (value: unknown) => value });
    await expect(rpc.call('echo', () => 'a function')).rejects.toMatchObject({ name: 'DataCloneError' });
    await expect(rpc.call('echo', 'plain')).resolves.toBe('plain');
  });

  it('rejects a call whose result cannot be cloned, and the serving side keeps answering', async () => {
    const rpc = connect({ unclonable: () => ({ run: () => undefined }), ping: () => 'pong' });
    const failure = await rpc.call('unclonable').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RemoteCallError);
    expect(failure).toMatchObject({ name: 'DataCloneError' });
    await expect(rpc.call('ping')).resolves.toBe('pong');
  });
});
