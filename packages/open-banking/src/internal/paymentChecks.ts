/**
 * The rules of `InternationalPaymentCheck` about currencies and exchange rates, as findings.
 *
 * @internal
 */
import { OpenEnum } from "@payrules/lenient"
import { Currency, DecimalAmount } from "@payrules/money"
import * as BigDecimal from "effect/BigDecimal"
import type * as InternationalPayment from "../InternationalPayment.js"
import type { Finding, Rule } from "../InternationalPaymentCheck.js"

/** @internal */
export const DATA = ["Data"] as const
/** @internal */
export const INITIATION = ["Data", "Initiation"] as const

/** @internal */
export const finding = (
  severity: Finding["severity"],
  rule: Rule,
  path: ReadonlyArray<string | number>,
  message: string
): Finding => ({ severity, rule, path, message })

/** A `CurrencyNotListed` warning when `code` is not on the bundled list. @internal */
export const notListed = (
  code: string,
  path: ReadonlyArray<string | number>,
  consequence: string
): ReadonlyArray<Finding> =>
  Currency.isKnown(code)
    ? []
    : [
        finding(
          "warning",
          "CurrencyNotListed",
          path,
          `${code} is not on the ISO 4217 list bundled here (published ${Currency.publicationDate}): read as sent${consequence}`
        )
      ]

const rateText = (rate: BigDecimal.BigDecimal): string => DecimalAmount.toFixedString(rate)

/** The findings of one ExchangeRateInformation against the payment's currencies. @internal */
export const checkRate = (
  info: InternationalPayment.ExchangeRateInformation,
  at: ReadonlyArray<string>,
  initiation: InternationalPayment.Initiation,
  debtorAccountCurrency: string | undefined,
  initiationLevel: boolean
): ReadonlyArray<Finding> => {
  const out: Array<Finding> = []
  const related = [initiation.InstructedAmount.Currency as string, initiation.CurrencyOfTransfer as string]
  if (debtorAccountCurrency !== undefined) related.push(debtorAccountCurrency)
  if (!related.includes(info.UnitCurrency)) {
    const currencies = `InstructedAmount ${initiation.InstructedAmount.Currency}, CurrencyOfTransfer ${initiation.CurrencyOfTransfer}`
    out.push(
      debtorAccountCurrency === undefined
        ? finding(
            "warning",
            "UnitCurrencyUnrelated",
            [...at, "UnitCurrency"],
            `UnitCurrency ${info.UnitCurrency} is not a currency of the payment (${currencies}); Open Banking puts the debtor account's currency there, which is not known here: give debtorAccountCurrency to check it`
          )
        : finding(
            "error",
            "UnitCurrencyUnrelated",
            [...at, "UnitCurrency"],
            `UnitCurrency ${info.UnitCurrency} is not a currency of the payment (${currencies}, debtor account ${debtorAccountCurrency})`
          )
    )
  }
  if (info.ExchangeRate !== undefined && BigDecimal.isLessThanOrEqualTo(info.ExchangeRate, BigDecimal.fromBigInt(0n))) {
    out.push(
      finding(
        "error",
        "ExchangeRateNotPositive",
        [...at, "ExchangeRate"],
        `ExchangeRate ${rateText(info.ExchangeRate)} is not a rate: one unit of ${info.UnitCurrency} buys a positive amount`
      )
    )
  }
  if (info.RateType === "Agreed" && info.ContractIdentification === undefined) {
    out.push(
      finding(
        "warning",
        "AgreedRateWithoutContract",
        [...at, "ContractIdentification"],
        "RateType is Agreed but no ContractIdentification names the foreign exchange contract"
      )
    )
  }
  if (initiationLevel && info.RateType === "Agreed" && info.ExchangeRate === undefined) {
    out.push(
      finding(
        "warning",
        "AgreedRateWithoutRate",
        [...at, "ExchangeRate"],
        "RateType is Agreed but the agreed ExchangeRate is missing (Open Banking requires both with Agreed)"
      )
    )
  }
  return out
}

/** The findings of the Data-level rate against the Initiation-level one. @internal */
export const compareRates = (
  data: InternationalPayment.ExchangeRateInformation,
  initiation: InternationalPayment.ExchangeRateInformation
): ReadonlyArray<Finding> => {
  const at = [...DATA, "ExchangeRateInformation"]
  const out: Array<Finding> = []
  if (data.UnitCurrency !== initiation.UnitCurrency) {
    out.push(
      finding(
        "warning",
        "ExchangeRateMismatch",
        [...at, "UnitCurrency"],
        `the rate used is per ${data.UnitCurrency}, the rate of the initiation per ${initiation.UnitCurrency}`
      )
    )
  } else if (initiation.ExchangeRate !== undefined && !BigDecimal.equals(data.ExchangeRate!, initiation.ExchangeRate)) {
    out.push(
      finding(
        "warning",
        "ExchangeRateMismatch",
        [...at, "ExchangeRate"],
        `the rate used (${rateText(data.ExchangeRate!)}) differs from the rate of the initiation (${rateText(initiation.ExchangeRate)})`
      )
    )
  }
  // compared as sent: two unknown RateTypes are the same when their text is
  const used = OpenEnum.valueOf(data.RateType)
  const asked = OpenEnum.valueOf(initiation.RateType)
  if (used !== asked) {
    out.push(
      finding(
        "warning",
        "ExchangeRateMismatch",
        [...at, "RateType"],
        `the rate used is ${used}, the initiation asked for ${asked}`
      )
    )
  }
  return out
}
