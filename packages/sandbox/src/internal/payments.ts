/**
 * International payments for the Open Banking operation, in every status of the `revolut` profile and with every
 * creditor account scheme, generated from the seed.
 *
 * @internal
 */
import type { InternationalPayment } from "@payrules/open-banking"
import * as Random from "./random.js"

/** The financial id the sandbox answers to; another one is a 403. @internal */
export const financialId = "001580000103UAvAAM"

const statuses = ["Pending", "Rejected", "AcceptedSettlementInProcess", "AcceptedSettlementCompleted"] as const

const creditors = [
  {
    account: { SchemeName: "UK.OBIE.IBAN", Identification: "DE89370400440532013000", Name: "Lieferant GmbH" },
    currency: "EUR",
    amount: "250.00",
    rate: "1.1712",
    agent: { SchemeName: ["UK.OBIE.BICFI"], Identification: "COBADEFFXXX", Name: "Commerzbank" }
  },
  {
    account: {
      SchemeName: "UK.OBIE.SortCodeAccountNumber",
      Identification: "08080021325698",
      Name: "Acme Supplies Ltd"
    },
    currency: "GBP",
    amount: "1200.50",
    rate: undefined,
    agent: undefined
  },
  {
    account: {
      SchemeName: "US.RoutingNumberAccountNumber",
      Identification: "021000021123456789",
      Name: "Example Corp"
    },
    currency: "USD",
    amount: "980.00",
    rate: "1.2705",
    agent: undefined
  },
  {
    account: {
      SchemeName: "US.BranchCodeAccountNumber",
      Identification: "BR0042ACC123456",
      Name: "Example Branch LLC"
    },
    currency: "USD",
    amount: "75.25",
    rate: "1.2705",
    agent: undefined
  }
] as const

const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z")

/** @internal */
export interface SeededPayment {
  readonly id: string
  readonly status: (typeof statuses)[number]
  readonly body: InternationalPayment.RevolutEncoded
}

/** Two payments per status, cycling through the creditor account schemes. @internal */
export const make = (
  seed: number,
  selfBase = "https://sandbox.payrules.invalid/open-banking"
): ReadonlyArray<SeededPayment> => {
  const random = Random.make(seed ^ 0x0b)
  const out: Array<SeededPayment> = []
  let n = 0
  for (const status of statuses) {
    for (let k = 0; k < 2; k++) {
      const creditor = creditors[n % creditors.length]!
      const id = `ip_${random.uuid()}`
      const created = Date.UTC(2024, 4, 1) + n * 3_600_000 * 7 + random.int(0, 3_599) * 1000
      const exchange =
        creditor.rate === undefined
          ? {}
          : {
              ExchangeRateInformation: {
                UnitCurrency: "GBP",
                ExchangeRate: creditor.rate,
                RateType: "Actual"
              }
            }
      const body: InternationalPayment.RevolutEncoded = {
        Data: {
          InternationalPaymentId: id,
          ConsentId: `c_${random.uuid()}`,
          CreationDateTime: iso(created),
          Status: status,
          StatusUpdateDateTime: iso(created + (status === "Pending" ? 0 : 3_600_000)),
          ...exchange,
          Initiation: {
            InstructionIdentification: `INSTR-${String(n + 1).padStart(4, "0")}`,
            EndToEndIdentification: `E2E-${random.uuid().slice(0, 23)}`,
            ChargeBearer: "BorneByDebtor",
            CurrencyOfTransfer: creditor.currency,
            InstructedAmount: { Amount: creditor.amount, Currency: creditor.currency },
            ...(creditor.rate === undefined
              ? {}
              : { ExchangeRateInformation: { UnitCurrency: "GBP", RateType: "Actual" } }),
            Creditor: { Name: creditor.account.Name },
            ...(creditor.agent === undefined ? {} : { CreditorAgent: creditor.agent }),
            CreditorAccount: creditor.account,
            RemittanceInformation: { Reference: `INV-${2024_000 + n}` },
            DebtorAccount: {
              SchemeName: "UK.OBIE.SortCodeAccountNumber",
              Identification: "04290953215338",
              Name: "Sandbox Business Ltd"
            }
          }
        },
        Links: { Self: `${selfBase}/international-payments/${id}` },
        Meta: { TotalPages: 1 }
      } as InternationalPayment.RevolutEncoded
      out.push({ id, status, body })
      n++
    }
  }
  return out
}
