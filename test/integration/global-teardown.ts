import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  if (globalThis.__FXRATES_SCRATCH__) rmSync(globalThis.__FXRATES_SCRATCH__, { recursive: true, force: true });
  globalThis.__FXRATES_SCRATCH__ = undefined;
  const running = globalThis.__FXRATES_BACKENDS__;
  if (!running) return;
  await Promise.all([running.dynalite.close(), running.dynamoDbLocal.stop()]);
  globalThis.__FXRATES_BACKENDS__ = undefined;
}
