/**
 * The OpenAPI 3.1 documents of the three API families, generated from the same HttpApi definitions as the clients
 * and the sandbox.
 *
 * @since 0.1.0
 */
import * as OpenApi from "effect/http-api/OpenApi"
import { BusinessApi } from "./BusinessApi.js"
import { MerchantApi } from "./MerchantApi.js"
import { OpenBankingApi } from "./OpenBankingApi.js"

/**
 * @since 0.1.0
 * @category models
 */
export type Family = "open-banking" | "merchant" | "business"

/**
 * The OpenAPI document of one family.
 *
 * @since 0.1.0
 * @category documents
 */
export const document = (family: Family): OpenApi.OpenAPISpec => {
  switch (family) {
    case "open-banking":
      return OpenApi.fromApi(OpenBankingApi)
    case "merchant":
      return OpenApi.fromApi(MerchantApi)
    case "business":
      return OpenApi.fromApi(BusinessApi)
  }
}

/**
 * Every family, in the order the committed files are written.
 *
 * @since 0.1.0
 * @category constants
 */
export const families: ReadonlyArray<Family> = ["open-banking", "merchant", "business"]

/**
 * The committed text of a document: pretty JSON with a final newline.
 *
 * @since 0.1.0
 * @category documents
 */
export const render = (family: Family): string => `${JSON.stringify(document(family), null, 2)}\n`
