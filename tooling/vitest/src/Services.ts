/**
 * The real servers of the tests, as the `globalSetup` of `@payrules/vitest/services` left them: their URLs, or a
 * failure that says why they are missing and how to get them (a test that needs a server fails without it; it is
 * never skipped).
 */

const need = (name: "PAYRULES_POSTGRES_URL" | "PAYRULES_REDIS_URL"): string => {
  const url = process.env[name]
  if (url !== undefined && url !== "") return url
  throw new Error(
    process.env.PAYRULES_SERVICES_UNAVAILABLE ??
      `${name} is not set: run the tests with the package's vitest configuration (its globalSetup starts the servers), or set it`
  )
}

/** The URL of the test PostgreSQL (`postgres://payrules@127.0.0.1:<port>/payrules`). */
export const postgresUrl = (): string => need("PAYRULES_POSTGRES_URL")

/** The URL of the test Redis (`redis://127.0.0.1:<port>`). */
export const redisUrl = (): string => need("PAYRULES_REDIS_URL")
