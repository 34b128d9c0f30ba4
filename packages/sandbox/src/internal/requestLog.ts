/**
 * The log of requests a sandbox received, for tests that assert what a client sent.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import type * as Fault from "../Fault.js"

/** @internal */
export interface Entry {
  readonly method: string
  readonly path: string
  /** the query string as received (`?a=1&b=2`, or empty): read into a record when the log is read */
  readonly query: string
  readonly operation: Fault.Operation | null
  readonly status: number
  readonly fault: Fault.Kind | null
  readonly at: number
}

const MAX_ENTRIES = 100_000

/** @internal */
export interface RequestLog {
  readonly add: (entry: Entry) => Effect.Effect<void>
  /** {@link add}, at once (the middleware logs every request from code that runs outside an effect) */
  readonly addUnsafe: (entry: Entry) => void
  readonly all: Effect.Effect<ReadonlyArray<Entry>>
  readonly clear: Effect.Effect<void>
  readonly size: Effect.Effect<number>
}

/** @internal */
export const make: Effect.Effect<RequestLog> = Effect.sync(() => {
  // appended from one JavaScript thread: a push is atomic between fibers
  let entries: Array<Entry> = []
  const addUnsafe = (entry: Entry) => {
    if (entries.length >= MAX_ENTRIES) entries = entries.slice(MAX_ENTRIES / 2)
    entries.push(entry)
  }
  return {
    add: (entry) => Effect.sync(() => addUnsafe(entry)),
    addUnsafe,
    all: Effect.sync(() => entries.slice()),
    clear: Effect.sync(() => {
      entries = []
    }),
    size: Effect.sync(() => entries.length)
  }
})
