/**
 * Reading what the APIs send: the four answers the clients decode (a page of 20 subscription plans, an international
 * payment, an exchange transaction, a /pay/fields answer), each as the sandbox serves it, decoded with the Schema the
 * client uses, beside ajv validating the same parsed JSON against the response schema of the same operation in the
 * sandbox's OpenAPI document (`OpenApiDocuments`, which the e2e suite checks the sandbox's answers against). ajv only
 * answers yes or no; the Schemas also turn text into DateTime, IsoDuration and BigDecimal values.
 *
 * Measured on the packages as published (their built dist/, not the TypeScript sources that tsx would transpile).
 * Run twice: interpreted, then in a child process with effect's Schema JIT compiler enabled (the side-effect import
 * `effect/schema/SchemaJITCompiler/enable`, the way a user turns it on), so each table compares one engine with ajv in
 * one process. `BENCH_JIT=0|1` runs one of them.
 */
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { run } from "@payrules/bench"
import { ExchangeTransaction } from "@payrules/exchange"
import { InternationalPayment } from "@payrules/open-banking"
import { Sandbox } from "@payrules/sandbox"
import { PlanCheck } from "@payrules/subscriptions"
import { PayFields } from "@payrules/transfers"
import { OpenApiDocuments } from "@payrules/transport"
import { Ajv2020 } from "ajv/dist/2020.js"
import addFormatsModule from "ajv-formats"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"

// ajv-formats is CommonJS: its default export is the plugin function
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020

const jit = process.env.BENCH_JIT

if (jit === undefined) {
  // the packages as users install them: their dist/, built now if it is not up to date (tsc -b does nothing then)
  const root = fileURLToPath(new URL("../../../", import.meta.url))
  const tsc = spawnSync(
    process.execPath,
    [`${root}node_modules/typescript/bin/tsc`, "-b", `${root}packages/sandbox/tsconfig.src.json`],
    { stdio: "inherit" }
  )
  if (tsc.status !== 0) throw new Error("the packages did not build")
  // this process measures nothing: one child per engine, one after the other
  for (const engine of ["0", "1"]) {
    const child = spawnSync(
      process.execPath,
      [
        // without the @payrules/source condition: the workspace packages resolve to their dist/
        ...process.execArgv.filter((arg) => arg !== "--conditions=@payrules/source"),
        ...(engine === "1" ? ["--import", "effect/schema/SchemaJITCompiler/enable"] : []),
        fileURLToPath(import.meta.url)
      ],
      { stdio: "inherit", env: { ...process.env, BENCH_JIT: engine } }
    )
    if (child.status !== 0) throw new Error(`the decoding benchmark (BENCH_JIT=${engine}) exited with ${child.status}`)
  }
} else {
  const sandbox = await Sandbox.start({ seed: 93, plans: 40 })
  try {
    const token = `Bearer ${sandbox.tenants[0]!.token}`
    const get = async (url: string, headers: Record<string, string> = {}) => {
      const response = await fetch(url, { headers: { authorization: token, ...headers } })
      if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`)
      return (await response.json()) as unknown
    }
    const post = async (url: string, body: unknown) => {
      const response = await fetch(url, {
        method: "POST",
        headers: { authorization: token, "content-type": "application/json" },
        body: JSON.stringify(body)
      })
      if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`)
      return (await response.json()) as unknown
    }
    const seed = (await (await fetch(`${sandbox.urls.control}/seed`)).json()) as {
      accounts: ReadonlyArray<{ id: string; currency: string }>
      counterparties: ReadonlyArray<{ id: string; accounts: ReadonlyArray<{ id: string; corridor: string }> }>
      payments: ReadonlyArray<{ id: string }>
    }
    const page = await get(`${sandbox.urls.merchant}/api/subscription-plans?limit=20`, {
      "revolut-api-version": "2024-09-01"
    })
    if ((page as { subscription_plans: ReadonlyArray<unknown> }).subscription_plans.length !== 20) {
      throw new Error("the page does not hold 20 plans")
    }
    const payment = await get(`${sandbox.urls.openBanking}/international-payments/${seed.payments[0]!.id}`, {
      "x-fapi-financial-id": "001580000103UAvAAM"
    })
    const [from, to] = [seed.accounts[0]!, seed.accounts.find((a) => a.currency !== seed.accounts[0]!.currency)!]
    const transaction = await post(`${sandbox.urls.business}/exchange`, {
      from: { account_id: from.id, currency: from.currency, amount: 10.5 },
      to: { account_id: to.id, currency: to.currency },
      request_id: "bench-decode-1"
    })
    const swift = seed.counterparties.find((c) => c.accounts[0]?.corridor === "US-USD-SWIFT")!
    const fields = await post(`${sandbox.urls.business}/pay/fields`, {
      account_id: from.id,
      receiver: { counterparty_id: swift.id, account_id: swift.accounts[0]!.id }
    })

    const ajv = new Ajv2020({ allErrors: false, strict: false, validateFormats: true })
    addFormats(ajv)
    for (const family of OpenApiDocuments.families) {
      ajv.addSchema(JSON.parse(JSON.stringify(OpenApiDocuments.document(family))), family)
    }
    const pointer = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1")
    const responseSchema = (family: OpenApiDocuments.Family, path: string, method: string) =>
      ajv.compile({
        $ref: `${family}#/paths/${pointer(path)}/${method}/responses/200/content/${pointer("application/json")}/schema`
      })

    const cases = [
      {
        name: "a page of 20 subscription plans",
        value: page,
        // what MerchantClient reads since issue 34: the envelope, then each plan on its own, with the plan checks
        decode: PlanCheck.decodeAndCheck,
        label: "PlanCheck.decodeAndCheck (MerchantClient: plan by plan, checked)",
        validate: responseSchema("merchant", "/api/subscription-plans", "get")
      },
      {
        name: "an international payment",
        value: payment,
        // what OpenBankingClient reads with since 0.2: the strict Schema first, the lenient one when it fails
        decode: (u: unknown) => InternationalPayment.decode("revolut", u, { mode: "lenient" }),
        label: "InternationalPayment.decode lenient (OpenBankingClient: strict Schema first)",
        validate: responseSchema("open-banking", "/international-payments/{InternationalPaymentId}", "get")
      },
      {
        name: "an exchange transaction",
        value: transaction,
        decode: Schema.decodeUnknownResult(ExchangeTransaction.Lenient),
        label: "ExchangeTransaction.Lenient (BusinessClient)",
        validate: responseSchema("business", "/exchange", "post")
      },
      {
        name: "a /pay/fields answer",
        value: fields,
        // what BusinessClient reads since issue 34: the envelope, then each rule on its own
        decode: PayFields.decodeLenient,
        label: "PayFields.decodeLenient (BusinessClient: rule by rule)",
        validate: responseSchema("business", "/pay/fields", "post")
      }
    ] as const

    await run(
      `Decoding what the APIs send: our Schemas (${jit === "1" ? "JIT compiled" : "interpreted"}) vs ajv on the OpenAPI response schema`,
      cases.map((c) => {
        const decode = c.decode as (u: unknown) => Result.Result<unknown, unknown>
        return {
          name: c.name,
          unit: "decode of one parsed answer",
          contenders: [
            {
              name: c.label,
              ours: true,
              fn: () => decode(c.value),
              check: () => Result.isSuccess(decode(c.value))
            },
            { name: "ajv 2020 (validates only)", fn: () => c.validate(c.value), check: () => c.validate(c.value) }
          ]
        }
      })
    )
  } finally {
    await sandbox.stop()
  }
}
