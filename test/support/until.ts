/** Polls `done` every 20 ms until it holds; after `ms` without, fails naming `what` was awaited. */
export async function until(what: string, done: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
