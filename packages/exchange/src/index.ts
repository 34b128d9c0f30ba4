/**
 * @since 0.1.0
 */

/**
 * When `exchange_reason_code` is required (a user-supplied policy), and the codes of GET /exchange-reasons.
 *
 * @since 0.1.0
 */
export * as ExchangeReason from "./ExchangeReason.js"

/**
 * The POST /exchange body: `Sell | Buy`, exact amounts, the rules of D5, fingerprints.
 *
 * @since 0.1.0
 */
export * as ExchangeRequest from "./ExchangeRequest.js"

/**
 * The exchange transaction states and their transition table (D5).
 *
 * @since 0.1.0
 */
export * as ExchangeState from "./ExchangeState.js"

/**
 * The exchange transaction (the response of POST /exchange) and the D5 rule on `reason_code`.
 *
 * @since 0.1.0
 */
export * as ExchangeTransaction from "./ExchangeTransaction.js"

/**
 * The request_id ledger: New, Replay or Conflict, with the idempotency window.
 *
 * @since 0.1.0
 */
export * as RequestLedger from "./RequestLedger.js"
