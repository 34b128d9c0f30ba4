/**
 * Fixtures made when a test first needs them rather than when a test file loads (see @payrules/vitest/Lazy: code run
 * while a file loads or in `beforeAll` makes each mutant in it run the whole suite under mutation testing).
 */
export { lazily, lazyArbitrary, schemaArbitrary } from "@payrules/vitest/Lazy"
