import { RequestLedger } from "@payrules/exchange"
import { Effect } from "effect"
import { ledgerContract } from "./ledgerContract.js"

// the in-memory ledger of @payrules/exchange (the default, and the sandbox's): the contract the durable stores keep
ledgerContract({
  name: "memory",
  fresh: Effect.succeed({ open: (options) => RequestLedger.layerWith(options ?? {}) }),
  shared: false,
  modelRuns: 100
})
