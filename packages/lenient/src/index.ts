/**
 * @since 0.1.0
 */

/**
 * Lists read from a server that keep their readable items and report the others (D11).
 *
 * @since 0.1.0
 */
export * as ItemList from "./ItemList.js"
/**
 * Enums read from a server, open to values added since: an unknown value is kept as `{ _tag: "Unknown", value }` (D11).
 *
 * @since 0.1.0
 */
export * as OpenEnum from "./OpenEnum.js"

/**
 * A lenient read at the cost of a strict one when the answer holds nothing new: the closed Schema first, the open one
 * when that fails.
 *
 * @since 0.2.0
 */
export * as Reader from "./Reader.js"
