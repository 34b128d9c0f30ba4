import * as DateTime from "effect/DateTime"

/**
 * Fast constructors for Effect `DateTime` values, for the hot loops of calendar arithmetic.
 *
 * Effect builds a DateTime with `Object.create(proto)` and then defines its lazily computed caches (`partsUtc`, and
 * for zoned values `adjustedEpochMillis` and `partsAdjusted`) one by one with `Object.defineProperty`, which costs
 * about 100 ns for a Utc value and 350 ns for a zoned one, more than the arithmetic itself (`DateTime.mapEpochMillis`,
 * effect's public way to move a value to another instant, builds it that way: `Calendar.addTo` ran at a third of its
 * effect 3 speed on it). Here the same prototypes are extended once with accessors for those caches: reading one gives
 * `undefined` until effect computes it, and writing it defines the same non-enumerable own property that effect's
 * constructor would have. The values have effect's prototype chain, the same own enumerable properties
 * (`epochMilliseconds`, and `zone`), and behave identically under every DateTime function;
 * `test/internal/dateTime.test.ts` checks that against values built by effect, so a change of effect's layout fails a
 * test instead of going unnoticed.
 *
 * @internal
 */

const lazyCache = (name: string): PropertyDescriptor => ({
  configurable: true,
  enumerable: false,
  get() {
    return undefined
  },
  set(this: object, value: unknown) {
    Object.defineProperty(this, name, { value, enumerable: false, writable: true, configurable: true })
  }
})

const ProtoUtc = Object.create(Object.getPrototypeOf(DateTime.makeUnsafe(0)), {
  partsUtc: lazyCache("partsUtc")
})

const ProtoZoned = Object.create(Object.getPrototypeOf(DateTime.makeZonedUnsafe(0, { timeZone: 0 })), {
  partsUtc: lazyCache("partsUtc"),
  adjustedEpochMillis: lazyCache("adjustedEpochMillis"),
  partsAdjusted: lazyCache("partsAdjusted")
})

/** @internal */
export const makeUtc = (epochMillis: number): DateTime.Utc => {
  const self = Object.create(ProtoUtc)
  self.epochMilliseconds = epochMillis
  return self
}

/** @internal */
export const makeZoned = (epochMillis: number, zone: DateTime.TimeZone): DateTime.Zoned => {
  const self = Object.create(ProtoZoned)
  self.epochMilliseconds = epochMillis
  self.zone = zone
  return self
}

/**
 * A DateTime of the same kind and zone as `self` at `epochMillis` (which the caller has range-checked).
 *
 * @internal
 */
export const withEpochMillis = <A extends DateTime.DateTime>(self: A, epochMillis: number): A =>
  (self._tag === "Utc" ? makeUtc(epochMillis) : makeZoned(epochMillis, self.zone)) as A
