import * as PgRequestLedger from "@payrules/stores/PgRequestLedger"
import { Effect } from "effect"
import { ledgerContract } from "./ledgerContract.js"
import { freshSchema } from "./pg.js"

// every test in a schema of its own on the test server
ledgerContract({
  name: "PostgreSQL",
  fresh: Effect.map(freshSchema, (url) => ({ open: (options) => PgRequestLedger.layer({ ...options, url }) })),
  shared: true,
  modelRuns: 25
})
