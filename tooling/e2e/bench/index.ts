/**
 * `pnpm bench` for the transport and the sandbox: the client's cost against plain fetch (./client.ts), the sandbox's
 * request_id ledger at 100,000 keys (./ledger.ts) and the load benchmark against a plain node:http server
 * (./load.ts, with the one-endpoint floors of effect in its table, and which ends with the floor: a constant answer
 * from node:http, effect's HttpServer, an HttpRouter and a one-endpoint HttpApi). `BENCH_ONLY=client|ledger|load|floor`
 * runs one of them.
 */
const only = process.env.BENCH_ONLY
if (only === undefined || only === "client") await import("./client.js")
if (only === undefined || only === "ledger") await (await import("./ledger.js")).run()
if (only === undefined || only === "load") await (await import("./load.js")).run()
if (only === "floor") await (await import("./load.js")).floor()
