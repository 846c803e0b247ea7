/** Echoes outside text (user input, upstream data, identifiers) in a message only as a short printable token. */
export function printable(text: string, maxLength: number): string {
  const clean = text.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > maxLength ? `${clean.slice(0, maxLength)}…` : clean;
}
