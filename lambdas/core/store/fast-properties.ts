/**
 * Gives an object fast (hidden-class) properties again if it has fallen into V8's dictionary mode, keeping its
 * identity. Enumerating an object that inherits from it is enough: before `for...in` walks a prototype chain, V8
 * turns the prototypes on it back into fast objects.
 *
 * This relies on V8 behaviour that no specification promises. The SDK's client `config` is left in dictionary mode,
 * and every call copies and reads it. Should V8 stop doing this, the call costs next to nothing and the tests that
 * check `%HasFastProperties` fail.
 */
// Why: docs/clever-parts.md#v8-fast-properties-on-the-client-config
export function restoreFastProperties(object: object): void {
  for (const _ in Object.create(object)) break;
}
