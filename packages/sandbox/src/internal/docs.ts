/**
 * The /docs page: the OpenAPI document of the sandbox rendered by Scalar, bundled with effect (no CDN), without the
 * web fonts Scalar loads by default (the page asks nothing of another host), with each family's Bearer scheme
 * selected (so a call tried from the page carries the token entered there), and the icon a browser asks for.
 *
 * @internal
 */

import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApiScalar from "effect/http-api/HttpApiScalar"
import * as Layer from "effect/Layer"
import { SandboxApi, securitySchemes } from "../SandboxApi.js"

/** a browser asks for /favicon.ico on every page that names no icon: a small one, not a 404 */
const icon = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#2b6cb0"/><path d="M5 13V3h3.5a3 3 0 0 1 0 6H7v4z" fill="#fff"/></svg>'
)

/** GET /docs and GET /favicon.ico. @internal */
export const layer = Layer.mergeAll(
  HttpApiScalar.layer(SandboxApi, {
    path: "/docs",
    scalar: {
      withDefaultFonts: false,
      authentication: { preferredSecurityScheme: Object.values(securitySchemes) }
    }
  }),
  HttpRouter.add(
    "GET",
    "/favicon.ico",
    HttpServerResponse.uint8Array(icon, {
      contentType: "image/svg+xml",
      headers: { "cache-control": "public, max-age=86400" }
    })
  )
)
