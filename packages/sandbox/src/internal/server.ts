/**
 * The node:http server of the sandbox with its limits, and the router configuration that reads paths as the
 * middleware does.
 *
 * @internal
 */
import { createServer } from "node:http"
import type * as FindMyWay from "effect/http/FindMyWay"
import type { Limits } from "../Sandbox.js"

/** A node:http server with the limits set (Node writes the 408 and 431 answers itself). */
export const nodeServer = (limits: Limits) => {
  const requestTimeout = limits.requestTimeoutMs
  const headersTimeout = Math.min(limits.headersTimeoutMs, requestTimeout)
  const server = createServer({
    maxHeaderSize: limits.maxHeaderBytes,
    requestTimeout,
    headersTimeout,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // how often Node looks for requests past their time (30 s by default, which would let a 200 ms timeout last 30 s)
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(headersTimeout / 4)))
  })
  server.keepAliveTimeout = limits.keepAliveTimeoutMs
  server.maxConnections = limits.maxConnections
  return server
}

/**
 * The router takes paths as they are written, as the middleware does: case-sensitive, no trailing or duplicate
 * slashes dropped, parameters of any length (the resource answers an id too long, not the router).
 */
export const routerConfig: FindMyWay.RouterConfig = {
  caseSensitive: true,
  ignoreTrailingSlash: false,
  ignoreDuplicateSlashes: false,
  maxParamLength: Number.MAX_SAFE_INTEGER
}
