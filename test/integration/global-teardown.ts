export default async function globalTeardown(): Promise<void> {
  const running = globalThis.__FXRATES_BACKENDS__;
  if (!running) return;
  await Promise.all([running.dynalite.close(), running.dynamoDbLocal.stop()]);
  globalThis.__FXRATES_BACKENDS__ = undefined;
}
