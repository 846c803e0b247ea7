/**
 * The lines this process writes to stdout until `restore`, and nothing printed meanwhile: the functions' logger
 * and EMF emitter write there directly (lambdas/core/observability.ts), not through `console`.
 */
export function captureStdoutLines(): { lines: string[]; restore(): void } {
  const lines: string[] = [];
  let pending = '';
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    const text = pending + (typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const parts = text.split('\n');
    pending = parts.pop() ?? '';
    lines.push(...parts);
    return true;
  });
  return { lines, restore: () => spy.mockRestore() };
}
