/**
 * @since 0.1.0
 */

/**
 * The FAPI request headers of Open Banking, the interaction id rule and the header names to redact.
 *
 * @since 0.1.0
 */
export * as FapiHeaders from "./FapiHeaders.js"
/**
 * The international payment response (GET /international-payments/{InternationalPaymentId}) in two profiles.
 *
 * @since 0.1.0
 */
export * as InternationalPayment from "./InternationalPayment.js"
/**
 * Cross-field checks of an international payment, as findings with a severity, a rule and a path.
 *
 * @since 0.1.0
 */
export * as InternationalPaymentCheck from "./InternationalPaymentCheck.js"
/**
 * A strict parser of IPv4 and IPv6 addresses.
 *
 * @since 0.1.0
 */
export * as IpAddress from "./IpAddress.js"
/**
 * The payment status lifecycle of each profile, as a pure table.
 *
 * @since 0.1.0
 */
export * as PaymentStatus from "./PaymentStatus.js"
/**
 * The two profiles: revolut and obie-3.1.11.
 *
 * @since 0.1.0
 */
export * as Profile from "./Profile.js"
