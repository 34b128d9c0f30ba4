/**
 * @since 0.1.0
 */

/**
 * The bearer token handed to handlers.
 *
 * @since 0.1.0
 */
export * as Auth from "./Auth.js"

/**
 * The business API: exchange, exchange reasons, transaction lookup, transfer field requirements.
 *
 * @since 0.1.0
 */
export * as BusinessApi from "./BusinessApi.js"
/**
 * The client of the business API.
 *
 * @since 0.1.0
 */
export * as BusinessClient from "./BusinessClient.js"
/**
 * The merchant API: subscription plans.
 *
 * @since 0.1.0
 */
export * as MerchantApi from "./MerchantApi.js"

/**
 * The client of the merchant API.
 *
 * @since 0.1.0
 */
export * as MerchantClient from "./MerchantClient.js"
/**
 * The OpenAPI 3.1 documents of the families.
 *
 * @since 0.1.0
 */
export * as OpenApiDocuments from "./OpenApiDocuments.js"
/**
 * The Open Banking API: international payments.
 *
 * @since 0.1.0
 */
export * as OpenBankingApi from "./OpenBankingApi.js"
/**
 * The client of the Open Banking API.
 *
 * @since 0.1.0
 */
export * as OpenBankingClient from "./OpenBankingClient.js"
/**
 * The limiter of POST /pay/fields: the service, its in-process layer, and layers over any `RateLimiterStore`.
 *
 * @since 0.1.0
 */
export * as PayFieldsLimiter from "./PayFieldsLimiter.js"
