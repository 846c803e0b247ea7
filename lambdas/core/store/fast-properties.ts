/**
 * Gives an object fast properties again, keeping its identity: before `for...in` walks a prototype chain, V8 turns
 * the prototypes back into fast objects. No specification promises it; tests check `%HasFastProperties`.
 */
// Why: docs/clever-parts.md#v8-fast-properties-on-the-client-config
export function restoreFastProperties(object: object): void {
  for (const _ in Object.create(object)) break;
}
