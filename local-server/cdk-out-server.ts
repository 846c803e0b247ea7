import { createServer } from 'node:http';
import { type CdkOutHandlers, type CdkOutHandlersOptions, startCdkOutHandlers } from './cdk-out-handlers';
import { attachLocalGateway, createLocalGateway } from './gateway';
import { listen } from './listen';
import { urlHost } from './startup-errors';

export interface CdkOutServerOptions extends CdkOutHandlersOptions {
  port?: number;
  host?: string;
  /** Told each failure the gateway answers with a 5xx (a function error, an authorizer that failed). */
  onError?: (error: unknown, requestId: string) => void;
}

export interface CdkOutServer {
  /** The API's base URL, ending in `/<stage>/`. */
  url: string;
  port: number;
  functions: CdkOutHandlers;
  close(): Promise<void>;
}

/** The `npm start` gateway over a cloud assembly's built functions; the dashboard is the source server's only. */
export async function startCdkOutServer(options: CdkOutServerOptions): Promise<CdkOutServer> {
  const functions = await startCdkOutHandlers(options);
  try {
    const gateway = createLocalGateway({
      handlers: functions.handlers,
      authorizer: functions.authorizer,
      identityHeader: functions.identityHeader,
      stage: functions.stage,
      region: functions.region,
      accountId: functions.accountId,
      ...(options.onError ? { onError: options.onError } : {}),
    });
    const server = attachLocalGateway(createServer(), gateway);
    server.keepAliveTimeout = 5_000;
    const host = options.host ?? '127.0.0.1';
    const port = await listen(server, options.port ?? 0, host);
    return {
      url: `http://${urlHost(host)}:${port}/${functions.stage}/`,
      port,
      functions,
      close: async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await functions.close();
      },
    };
  } catch (error) {
    await functions.close();
    throw error;
  }
}
