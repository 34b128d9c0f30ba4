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

import { ab } from "./_ab.ts"
{
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


    const L = Schema.decodeUnknownResult(InternationalPayment.RevolutLenient)
    const fieldItem = Schema.decodeUnknownResult(PayFields.FieldRequirement)
    const env = Schema.decodeUnknownResult(PayFields.FieldsResponseEnvelope)
    const oldFields = (a: any) => { const e = env(a) as any; const out = []; for (const f of e.success.fields) out.push(fieldItem(f)); return out }
    const { SubscriptionPlan } = await import("@payrules/subscriptions")
    const arr = Schema.decodeUnknownResult(Schema.Array(SubscriptionPlan.SubscriptionPlanLenient))
    const arrStrict = Schema.decodeUnknownResult(Schema.Array(SubscriptionPlan.SubscriptionPlan))
    const plans = (page as any).subscription_plans
    const decoded = (arr(plans) as any).success
    ab({
      "page decodeAndCheck": [cases[0].decode, page],
      "page Array(lenient plan)": [arr, plans],
      "page Array(strict plan)": [arrStrict, plans],
      "checks only": [(ps: any) => ps.map((p: any) => PlanCheck.check(p)), decoded],
      "page ajv": [cases[0].validate, page],
    }, 1000, 30)
  } finally { await sandbox.stop() }
}
