/**
 * `pnpm bench` for the transport and the sandbox: the client's cost against plain fetch (./client.ts), the sandbox's
 * request_id ledger at 100,000 keys (./ledger.ts), the load benchmark against a plain node:http server (./load.ts,
 * which ends with the floor: a constant answer from node:http, effect's HttpServer and a one-endpoint HttpApi), the
 * CPU each request costs the server (./cost.ts) and reading what the APIs send with our Schemas against ajv
 * (./decode.ts). `BENCH_ONLY=client|ledger|load|floor|cost|decode` runs one of them.
 */
const only = process.env.BENCH_ONLY
if (only === undefined || only === "client") await import("./client.js")
if (only === undefined || only === "ledger") await (await import("./ledger.js")).run()
if (only === undefined || only === "load") await (await import("./load.js")).run()
if (only === "floor") await (await import("./load.js")).floor()
if (only === undefined || only === "cost") await (await import("./cost.js")).run()
if (only === undefined || only === "decode") await import("./decode.js")
