import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as SqliteRequestLedger from "@payrules/stores/SqliteRequestLedger"
import { Effect } from "effect"
import { ledgerContract } from "./ledgerContract.js"

// every test on a new database file of its own
ledgerContract({
  name: "SQLite",
  fresh: Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "payrules-ledger-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    ),
    (dir) => ({ open: (options) => SqliteRequestLedger.layer({ ...options, filename: join(dir, "ledger.db") }) })
  ),
  shared: true,
  modelRuns: 20
})
