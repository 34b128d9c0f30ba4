/**
 * @since 0.1.0
 */

/**
 * Fault injection rules.
 *
 * @since 0.1.0
 */
export * as Fault from "./Fault.js"
/**
 * Starting a sandbox: as a layer, from code, and what it serves.
 *
 * @since 0.1.0
 */
export * as Sandbox from "./Sandbox.js"
/**
 * The HttpApi the sandbox serves, with its control endpoints.
 *
 * @since 0.1.0
 */
export * as SandboxApi from "./SandboxApi.js"
