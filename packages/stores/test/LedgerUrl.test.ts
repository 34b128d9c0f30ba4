/**
 * `LedgerUrl`: the one string that says where a request_id ledger lives (`memory`, `sqlite:<file>`,
 * `postgres://...`). Each form is read to its place, each refusal has its reason and a message that quotes what was
 * given (cut to 200 characters), `format` writes a place back with its password masked, and `layer` opens a ledger
 * that works at every place. Each test names the bug it guards.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import type { RequestLedger } from "@payrules/exchange"
import { Effect, Option, Redacted, Result } from "effect"
import fc from "fast-check"
import * as LedgerUrl from "../src/LedgerUrl.js"
import { ledgerOf, request } from "./ledgerContract.js"
import { freshSchema } from "./pg.js"

const forms = "memory, sqlite:<file> or postgres://user@host:port/database"

/** the error `parse` refuses `input` with */
const refusal = (input: string): LedgerUrl.LedgerUrlError => {
  const result = LedgerUrl.parse(input)
  if (Result.isSuccess(result))
    throw new Error(`${JSON.stringify(input)} was read as ${JSON.stringify(result.success)}`)
  return result.failure
}

/** the place `parse` reads from `input` */
const place = (input: string): LedgerUrl.LedgerUrl => {
  const result = LedgerUrl.parse(input)
  if (Result.isFailure(result)) throw new Error(`${JSON.stringify(input)} was refused: ${result.failure.message}`)
  return result.success
}

/** the URL of a PostgreSQL place, in clear */
const urlOf = (ledger: LedgerUrl.LedgerUrl): string => {
  if (ledger._tag !== "Postgres") throw new Error(`not a PostgreSQL place: ${ledger._tag}`)
  return Redacted.value(ledger.url)
}

/** a directory of its own under the system's temporary directory, removed when the scope closes */
const tempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "payrules-ledger-url-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

/** whitespace that `String.prototype.trim` removes */
const blank = fc.array(fc.constantFrom(" ", "\t", "\n", "\r", "\u00a0", "\u2028", "\ufeff"), { maxLength: 3 })

/** a file name as given after `sqlite:` (anything but empty, and no whitespace at its end, which trim would cut) */
const filename = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trimEnd() === s && s !== "")

/** a URI scheme (RFC 3986: a letter, then letters, digits, +, - and .) that is none of the accepted ones */
const otherScheme = fc
  .tuple(
    fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    fc.string({ unit: fc.constantFrom(..."az09AZ+-.xq7"), maxLength: 12 })
  )
  .map(([first, rest]) => `${first}${rest}`)
  .filter((scheme) => scheme !== "sqlite" && !/^postgres(ql)?$/.test(scheme))

describe("LedgerUrl.parse: the accepted forms", () => {
  it("reads memory, also with whitespace around it (bug: an untrimmed option or variable is refused)", () => {
    expect(place("memory")).toStrictEqual(LedgerUrl.LedgerUrl.Memory())
    expect(place("  memory\n")).toStrictEqual(LedgerUrl.LedgerUrl.Memory())
    expect(place("\tmemory")._tag).toBe("Memory")
  })

  it("reads sqlite:<file> to the file after the colon, as given (bug: the scheme kept in the file name, or the name changed)", () => {
    expect(place("sqlite:./payrules.db")).toStrictEqual(LedgerUrl.LedgerUrl.Sqlite({ filename: "./payrules.db" }))
    expect(place("sqlite:/var/lib/app/ledger.db")).toStrictEqual(
      LedgerUrl.LedgerUrl.Sqlite({ filename: "/var/lib/app/ledger.db" })
    )
    expect(place(" sqlite:ledger one.db \n")).toStrictEqual(LedgerUrl.LedgerUrl.Sqlite({ filename: "ledger one.db" }))
    // a database in memory, for the life of the layer
    expect(place("sqlite::memory:")).toStrictEqual(LedgerUrl.LedgerUrl.Sqlite({ filename: ":memory:" }))
  })

  it("reads any file name after sqlite: whole, and writes it back the same (bug: a name cut or changed)", () => {
    fc.assert(
      fc.property(blank, filename, blank, (before, file, after) => {
        const ledger = place(`${before.join("")}sqlite:${file}${after.join("")}`)
        expect(ledger).toStrictEqual(LedgerUrl.LedgerUrl.Sqlite({ filename: file }))
        expect(LedgerUrl.format(ledger)).toBe(`sqlite:${file}`)
        expect(place(LedgerUrl.format(ledger))).toStrictEqual(ledger)
      })
    )
  })

  it("reads postgres:// and postgresql:// to the trimmed URL, kept redacted (bug: one spelling refused, or the password shown)", () => {
    const pg = place("  postgres://payrules:secret@db.internal:5432/payrules\n")
    expect(pg._tag).toBe("Postgres")
    expect(urlOf(pg)).toBe("postgres://payrules:secret@db.internal:5432/payrules")
    expect(String(pg._tag === "Postgres" ? pg.url : "")).not.toContain("secret")
    expect(urlOf(place("postgresql://u@127.0.0.1/db?sslmode=require"))).toBe(
      "postgresql://u@127.0.0.1/db?sslmode=require"
    )
    expect(urlOf(place("postgres://localhost"))).toBe("postgres://localhost")
  })
})

describe("LedgerUrl.parse: the refusals", () => {
  it("refuses an empty or blank string as Empty, listing the forms (bug: a blank option read as memory, or a message without the forms)", () => {
    for (const input of ["", "   ", "\n\t"]) {
      const error = refusal(input)
      expect(error).toBeInstanceOf(LedgerUrl.LedgerUrlError)
      expect(error._tag).toBe("LedgerUrlError")
      expect(error.reason).toBe("Empty")
      expect(error.input).toBe(input)
      expect(error.path).toStrictEqual([])
      expect(error.message).toBe(`${JSON.stringify(input)} is not a ledger: give ${forms}`)
    }
  })

  it('refuses sqlite: with no file as MissingFile (bug: a ledger opened on a file named "")', () => {
    for (const input of ["sqlite:", "  sqlite:  "]) {
      const error = refusal(input)
      expect(error.reason).toBe("MissingFile")
      expect(error.input).toBe(input)
      expect(error.message).toBe(
        `${JSON.stringify(input)} names no file: give sqlite:<file>, such as sqlite:./payrules.db`
      )
    }
  })

  it("refuses a postgres URL that does not parse, or names no host, as InvalidUrl (bug: a layer that fails later with a driver's error)", () => {
    for (const input of ["postgres://[bad/db", "postgresql://host:notaport/db"]) {
      const error = refusal(input)
      expect(error.reason).toBe("InvalidUrl")
      expect(error.message).toBe(`${JSON.stringify(input)} is not a URL: give postgres://user@host:port/database`)
    }
    for (const input of ["postgres:///payrules", "postgresql://"]) {
      const error = refusal(input)
      expect(error.reason).toBe("InvalidUrl")
      expect(error.message).toBe(`${JSON.stringify(input)} names no host: give postgres://user@host:port/database`)
    }
  })

  it("bug: a refused URL is shown without its password (a mistyped --ledger printed the PostgreSQL password)", () => {
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ["postgres://payrules:s3cret@/payrules", "postgres://payrules:***@/payrules", "is not a URL"],
      ["postgres://payrules:s3cret@[bad/db", "postgres://payrules:***@[bad/db", "is not a URL"],
      ["  postgresql://u:s3cret@host name/db", "  postgresql://u:***@host name/db", "is not a URL"],
      // a password that holds '/' (not encoded): masked up to the last '@'
      ["postgres://u:s3c/ret@[bad", "postgres://u:***@[bad", "is not a URL"],
      ["mysql://root:s3cret@localhost/db", "mysql://root:***@localhost/db", "has the scheme mysql"]
    ]
    for (const [input, shown, why] of cases) {
      const error = refusal(input)
      expect(error.input).toBe(shown)
      expect(error.message.startsWith(`${JSON.stringify(shown)} ${why}`)).toBe(true)
      expect(`${error.input} ${error.message}`).not.toContain("s3c")
    }
    // without a password nothing is masked
    expect(refusal("postgres://payrules@/payrules").input).toBe("postgres://payrules@/payrules")
    expect(refusal("postgres://[bad/db").input).toBe("postgres://[bad/db")
  })

  it("refuses another scheme as UnknownScheme, naming the scheme (bug: mysql:// or a misspelt scheme read as a file, or the wrong scheme named)", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["mysql://root@localhost/db", "mysql"],
      ["sqlite3:ledger.db", "sqlite3"],
      ["Postgres://host/db", "Postgres"],
      ["redis+tls://host", "redis+tls"],
      ["postgres:host/db", "postgres"],
      ["mypostgres://host/db", "mypostgres"],
      ["C:\\data\\ledger.db", "C"]
    ]
    for (const [input, scheme] of cases) {
      const error = refusal(input)
      expect(error.reason, input).toBe("UnknownScheme")
      expect(error.message).toBe(`${JSON.stringify(input)} has the scheme ${scheme}: give ${forms}`)
    }
  })

  it("names the whole scheme of any other URI (bug: a scheme cut at a digit, a + or a dot)", () => {
    fc.assert(
      fc.property(otherScheme, fc.string({ maxLength: 20 }), (scheme, rest) => {
        const input = `${scheme}:${rest}`.trimEnd()
        const error = refusal(input)
        expect(error.reason).toBe("UnknownScheme")
        expect(error.message).toBe(`${JSON.stringify(input)} has the scheme ${scheme}: give ${forms}`)
      })
    )
  })

  it("refuses a string with no scheme as UnknownScheme without naming one (bug: a file name or a word taken for a scheme)", () => {
    for (const input of [
      "ledger.db",
      "./payrules.db",
      "Memory",
      "memory please",
      "1sqlite:ledger.db",
      "-x:y",
      ":memory:"
    ]) {
      const error = refusal(input)
      expect(error.reason, input).toBe("UnknownScheme")
      expect(error.message).toBe(`${JSON.stringify(input)} is not a ledger: give ${forms}`)
    }
  })

  it("quotes what was given, untrimmed and cut to its first 200 characters, and keeps it whole in input (bug: a message the size of the input)", () => {
    const long = `mysql://${"x".repeat(300)}`
    const error = refusal(long)
    expect(error.input).toBe(long)
    expect(error.message).toBe(`${JSON.stringify(long.slice(0, 200))} has the scheme mysql: give ${forms}`)
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (input) => {
        const result = LedgerUrl.parse(input)
        if (Result.isSuccess(result)) return
        expect(result.failure.input).toBe(input)
        expect(result.failure.message.startsWith(`${JSON.stringify(input.slice(0, 200))} `)).toBe(true)
        expect(result.failure.message).toContain("give ")
      })
    )
  })

  it("reads a string as its trimmed self (bug: whitespace around a place changes what it is)", () => {
    fc.assert(
      fc.property(
        blank,
        fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom("memory", "sqlite:", "sqlite:a.db", "postgres://h/db")),
        blank,
        (before, text, after) => {
          const padded = LedgerUrl.parse(`${before.join("")}${text}${after.join("")}`)
          const trimmed = LedgerUrl.parse(text.trim())
          expect(padded._tag).toBe(trimmed._tag)
          if (Result.isSuccess(padded) && Result.isSuccess(trimmed)) {
            expect(LedgerUrl.format(padded.success)).toBe(LedgerUrl.format(trimmed.success))
          }
          if (Result.isFailure(padded) && Result.isFailure(trimmed)) {
            expect(padded.failure.reason).toBe(trimmed.failure.reason)
          }
        }
      )
    )
  })
})

describe("LedgerUrl.parseUnsafe", () => {
  it("returns the place, and throws the LedgerUrlError itself (bug: a constant in code that hides its reason)", () => {
    expect(LedgerUrl.parseUnsafe("sqlite:./payrules.db")).toStrictEqual(
      LedgerUrl.LedgerUrl.Sqlite({ filename: "./payrules.db" })
    )
    expect(LedgerUrl.unsafeParse(" memory ")).toStrictEqual(LedgerUrl.LedgerUrl.Memory())
    let thrown: unknown
    try {
      LedgerUrl.parseUnsafe("mysql://h/db")
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(LedgerUrl.LedgerUrlError)
    expect(thrown).toMatchObject({ _tag: "LedgerUrlError", reason: "UnknownScheme", input: "mysql://h/db" })
    expect(() => LedgerUrl.unsafeParse("sqlite:")).toThrow("names no file")
  })
})

describe("LedgerUrl.format", () => {
  it("writes memory and sqlite back as parse reads them (bug: a place that does not survive a round trip)", () => {
    expect(LedgerUrl.format(LedgerUrl.LedgerUrl.Memory())).toBe("memory")
    expect(place(LedgerUrl.format(LedgerUrl.LedgerUrl.Memory()))).toStrictEqual(LedgerUrl.LedgerUrl.Memory())
    expect(LedgerUrl.format(LedgerUrl.LedgerUrl.Sqlite({ filename: ":memory:" }))).toBe("sqlite::memory:")
  })

  it("masks a PostgreSQL password as *** and leaves the rest as it was (bug: the password in a log line)", () => {
    const formatted = LedgerUrl.format(place("postgres://payrules:s3cr%40t@db.internal:5433/ledger?sslmode=require"))
    expect(formatted).toBe("postgres://payrules:***@db.internal:5433/ledger?sslmode=require")
    expect(formatted).not.toContain("s3cr")
    expect(LedgerUrl.format(place("postgresql://:only-password@host/db"))).toBe("postgresql://:***@host/db")
  })

  it("writes a URL without a password unchanged (bug: *** added where there was no password)", () => {
    expect(LedgerUrl.format(place("postgres://payrules@127.0.0.1:5432/payrules"))).toBe(
      "postgres://payrules@127.0.0.1:5432/payrules"
    )
    expect(LedgerUrl.format(place("postgresql://host/db"))).toBe("postgresql://host/db")
  })

  it("keeps a masked URL readable as the same place (bug: a format that parse refuses)", () => {
    const ledger = place(LedgerUrl.format(place("postgres://u:p@h:1/d")))
    expect(urlOf(ledger)).toBe("postgres://u:***@h:1/d")
  })
})

/** registers r-1 and reads it back: the ledger works, and its window is the one given */
const works = (ledger: RequestLedger.RequestLedgerService, windowMillis: number) =>
  Effect.gen(function* () {
    const first = yield* ledger.register(request("r-1"))
    expect(first._tag).toBe("New")
    expect(first._tag === "New" && first.entry.expiresAt - first.entry.registeredAt).toBe(windowMillis)
    expect((yield* ledger.register(request("r-1")))._tag).toBe("Replay")
    const found = yield* ledger.lookup("r-1")
    expect(Option.map(found, (entry) => entry.received)).toStrictEqual(Option.some(2))
  })

const day = 24 * 60 * 60 * 1000

describe("LedgerUrl.layer", () => {
  it.effect("opens a ledger in memory, with the default window or the one given (bug: the options dropped)", () =>
    Effect.gen(function* () {
      yield* Effect.scoped(Effect.flatMap(ledgerOf(LedgerUrl.layer(place("memory"))), (ledger) => works(ledger, day)))
      yield* Effect.scoped(
        Effect.flatMap(ledgerOf(LedgerUrl.layer(place("memory"), { window: "5 seconds" })), (ledger) =>
          works(ledger, 5_000)
        )
      )
    })
  )

  it.effect("opens a ledger in a SQLite file that outlives the layer (bug: the file name or the window dropped)", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const ledgerUrl = place(`sqlite:${join(dir, "ledger.db")}`)
      yield* Effect.scoped(
        Effect.flatMap(ledgerOf(LedgerUrl.layer(ledgerUrl, { window: "1 hour" })), (ledger) =>
          works(ledger, 60 * 60 * 1000)
        )
      )
      // the same file again: the entry is still there
      const again = yield* ledgerOf(LedgerUrl.layer(ledgerUrl))
      expect(Option.map(yield* again.lookup("r-1"), (entry) => entry.received)).toStrictEqual(Option.some(2))
      // and a new id gets the default window
      const second = yield* again.register(request("r-2"))
      expect(second._tag === "New" && second.entry.expiresAt - second.entry.registeredAt).toBe(day)
    })
  )

  it.effect("opens a ledger in a SQLite database in memory (bug: sqlite::memory: taken for a file)", () =>
    Effect.gen(function* () {
      const ledger = yield* ledgerOf(LedgerUrl.layer(place("sqlite::memory:"), { window: "2 minutes" }))
      yield* works(ledger, 120_000)
    })
  )

  it.effect("opens a ledger in PostgreSQL (bug: the URL or the window not passed to the store)", () =>
    Effect.gen(function* () {
      const url = yield* freshSchema
      const ledgerUrl = place(url)
      yield* Effect.scoped(
        Effect.flatMap(ledgerOf(LedgerUrl.layer(ledgerUrl, { window: "3 minutes" })), (ledger) =>
          works(ledger, 180_000)
        )
      )
      // another ledger on the same database shares the entry
      const other = yield* ledgerOf(LedgerUrl.layer(ledgerUrl))
      expect(Option.map(yield* other.lookup("r-1"), (entry) => entry.received)).toStrictEqual(Option.some(2))
    })
  )
})
