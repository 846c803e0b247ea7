/**
 * Gives an object fast (hidden-class) properties again if it has fallen into V8's dictionary mode, keeping its
 * identity. Enumerating an object that inherits from it is enough: before `for...in` walks a prototype chain, V8
 * turns the prototypes on it back into fast objects.
 *
 * This relies on V8 behaviour that no specification promises; it is used for one measured reason. The SDK assembles
 * a client's `config` by adding some 50 properties to one object, which V8 then keeps as a dictionary, and every
 * call copies it whole several times (serializer, deserializer, endpoint, signer) and reads many of its properties.
 * Timed on Node 20 for one admission write through the SDK alone (answered at once, configured as on AWS: endpoint
 * ruleset, environment credentials), making it fast took the mean from about 150 µs to about 110 µs and the median
 * from about 115 µs to about 77 µs, a quarter of the SDK's time per call; the metering bench's "SDK alone" line
 * moves the same way (mean about 160 µs without, 105 to 135 µs with). Should V8 stop doing this, the call costs
 * next to nothing and the tests that check `%HasFastProperties` fail.
 */
export function restoreFastProperties(object: object): void {
  for (const _ in Object.create(object)) break;
}
