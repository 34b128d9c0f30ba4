/**
 * Checks of a decoded international payment that are not shape rules: what the scheme will do to it, what the
 * specification forbids across fields, and what lenient decoding let through. Each finding has a severity, a rule,
 * the path of the field from the root of the response and a message (the shape of `PlanCheck.Finding` of
 * @payrules/subscriptions).
 *
 * @since 0.1.0
 */
import { SchemeLimits } from "@payrules/accounts"
import { OpenEnum } from "@payrules/lenient"
import { DecimalAmount } from "@payrules/money"
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import * as InternationalPayment from "./InternationalPayment.js"
import { checkRate, compareRates, DATA, finding, INITIATION, notListed } from "./internal/paymentChecks.js"
import type { Profile } from "./Profile.js"

/**
 * @since 0.1.0
 * @category models
 */
export type Rule =
  /** the payment goes through Faster Payments and EndToEndIdentification is over 31 code points (warning, D7) */
  | "FasterPaymentsEndToEndIdentification"
  /** the payment goes through Faster Payments and RemittanceInformation.Reference is over 18 code points (warning, D7) */
  | "FasterPaymentsReference"
  /** both Reference and Unstructured are given: Unstructured is ignored (warning, D7) */
  | "UnstructuredIgnored"
  /** CurrencyOfTransfer is the currency of the debtor account, which the specification says it differs from (error) */
  | "CurrencyOfTransferIsDebtorCurrency"
  /** InstructedAmount.Amount has more decimals than the ISO 4217 exponent of its currency (error, D4) */
  | "AmountScaleExceedsExponent"
  /**
   * UnitCurrency is neither InstructedAmount.Currency, CurrencyOfTransfer nor the debtor account's currency (an
   * error when the debtor account's currency is known, a warning otherwise)
   */
  | "UnitCurrencyUnrelated"
  /** an ExchangeRate of 0 or less (error) */
  | "ExchangeRateNotPositive"
  /** RateType Agreed without a ContractIdentification (warning) */
  | "AgreedRateWithoutContract"
  /** an Initiation-level RateType Agreed without the agreed ExchangeRate (warning) */
  | "AgreedRateWithoutRate"
  /** the Data-level and the Initiation-level exchange rates disagree (warning) */
  | "ExchangeRateMismatch"
  /** Initiation.DebtorAccount is missing, which lenient `revolut` decoding admits (warning) */
  | "DebtorAccountMissing"
  /**
   * a well-formed currency code that is not on the bundled ISO 4217 list (a code published since, or not a
   * currency), which lenient decoding admits: kept as sent; its exponent is unknown, so the scale of an amount in it
   * is not checked (warning, D11)
   */
  | "CurrencyNotListed"
  /**
   * a well-formed enum value that this version does not know (a value the API added since: a status, a RateType, a
   * ChargeBearer, an account's SchemeName), which lenient decoding reads as `{ _tag: "Unknown", value }`: kept as
   * sent. Under an unknown SchemeName the Identification is not checked; the status lifecycle cannot check a move into
   * or out of an unknown Status (warning, D11; since 0.2.0)
   */
  | "UnknownValue"

/**
 * @since 0.1.0
 * @category models
 */
export interface Finding {
  readonly severity: "error" | "warning"
  readonly rule: Rule
  readonly path: ReadonlyArray<string | number>
  readonly message: string
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** the profile the payment was decoded in; `DebtorAccountMissing` applies to `revolut` only (default `revolut`) */
  readonly profile?: Profile | undefined
  /**
   * the scheme the payment goes through: `FasterPayments`, `Other`, or (undefined) inferred: Faster Payments when the
   * creditor account is `UK.OBIE.SortCodeAccountNumber` and CurrencyOfTransfer is `GBP`
   */
  readonly scheme?: "FasterPayments" | "Other" | undefined
  /** the currency of the debtor account, when the caller knows it (the response does not carry it) */
  readonly debtorAccountCurrency?: string | undefined
}

/** what an unknown value means, by the field it was read in */
const consequence = (path: ReadonlyArray<string | number>): string => {
  const last = path.at(-1)
  if (last === "Status" && path.length === 2) {
    return "; the status lifecycle cannot check a move into or out of it (PaymentStatus.checkObserved)"
  }
  if (last === "SchemeName") {
    return "; the Identification is kept as read: it cannot be checked under a scheme this version does not know"
  }
  return ""
}

/**
 * An `UnknownValue` warning for each enum value read as `{ _tag: "Unknown", value }`, in the order of the field
 * tables (whatever the order of the keys of the value: a payment built in code may have them in any order).
 */
const unknownValues = (payment: InternationalPayment.InternationalPayment): ReadonlyArray<Finding> => {
  const { Data } = payment
  const i = Data.Initiation
  const enums: ReadonlyArray<readonly [ReadonlyArray<string>, unknown]> = [
    [[...DATA, "Status"], Data.Status],
    [[...DATA, "ExchangeRateInformation", "RateType"], Data.ExchangeRateInformation?.RateType],
    [[...INITIATION, "ChargeBearer"], i.ChargeBearer],
    [[...INITIATION, "ExchangeRateInformation", "RateType"], i.ExchangeRateInformation?.RateType],
    [[...INITIATION, "CreditorAccount", "SchemeName"], i.CreditorAccount.SchemeName],
    [[...INITIATION, "DebtorAccount", "SchemeName"], i.DebtorAccount?.SchemeName]
  ]
  const out: Array<Finding> = []
  for (const [path, value] of enums) {
    if (OpenEnum.isUnknown(value)) {
      const found = { path, value: value.value }
      out.push(finding("warning", "UnknownValue", path, `${OpenEnum.message(found)}${consequence(path)}`))
    }
  }
  return out
}

/**
 * Whether the payment goes through UK Faster Payments, and why: `options.scheme` when given, otherwise a creditor
 * account identified by sort code and account number (`UK.OBIE.SortCodeAccountNumber`) with `GBP` as the currency of
 * transfer. Faster Payments is the UK's scheme for GBP between sort-code accounts; an IBAN or a US account, or a
 * foreign currency, goes another way (SWIFT).
 *
 * @since 0.1.0
 * @category checks
 */
export const fasterPayments = (
  payment: InternationalPayment.InternationalPayment,
  options?: Options
): { readonly applies: boolean; readonly because: string } => {
  if (options?.scheme === "FasterPayments") return { applies: true, because: "options.scheme is FasterPayments" }
  if (options?.scheme === "Other") return { applies: false, because: "options.scheme is Other" }
  const i = payment.Data.Initiation
  const scheme = OpenEnum.valueOf(i.CreditorAccount.SchemeName)
  const scan = scheme === "UK.OBIE.SortCodeAccountNumber"
  const gbp = i.CurrencyOfTransfer === "GBP"
  return scan && gbp
    ? {
        applies: true,
        because: "the creditor account is UK.OBIE.SortCodeAccountNumber and the currency of transfer GBP"
      }
    : {
        applies: false,
        because: scan
          ? `the currency of transfer is ${i.CurrencyOfTransfer}, not GBP`
          : `the creditor account is ${scheme}, not UK.OBIE.SortCodeAccountNumber`
      }
}

/**
 * The findings of a decoded payment: first an `UnknownValue` for each enum value that lenient decoding read as
 * unknown, in document order; then the other rules in document order (Data.ExchangeRateInformation first, then the
 * Initiation fields). Rules and severities:
 *
 * | rule | severity | path |
 * | --- | --- | --- |
 * | `UnknownValue` | warning | `Data.Status`, `...RateType`, `Data.Initiation.ChargeBearer`, `...SchemeName` |
 * | `ExchangeRateNotPositive` | error | `...ExchangeRateInformation.ExchangeRate` |
 * | `UnitCurrencyUnrelated` | error (warning when the debtor account's currency is unknown) | `...UnitCurrency` |
 * | `AgreedRateWithoutContract` | warning | `...ContractIdentification` |
 * | `AgreedRateWithoutRate` | warning | `Data.Initiation.ExchangeRateInformation.ExchangeRate` |
 * | `ExchangeRateMismatch` | warning | `Data.ExchangeRateInformation.UnitCurrency` / `ExchangeRate` / `RateType` |
 * | `FasterPaymentsEndToEndIdentification` | warning | `Data.Initiation.EndToEndIdentification` |
 * | `CurrencyOfTransferIsDebtorCurrency` | error | `Data.Initiation.CurrencyOfTransfer` |
 * | `AmountScaleExceedsExponent` | error | `Data.Initiation.InstructedAmount.Amount` |
 * | `FasterPaymentsReference` | warning | `Data.Initiation.RemittanceInformation.Reference` |
 * | `UnstructuredIgnored` | warning | `Data.Initiation.RemittanceInformation.Unstructured` |
 * | `DebtorAccountMissing` | warning | `Data.Initiation.DebtorAccount` |
 * | `CurrencyNotListed` | warning | `...UnitCurrency`, `Data.Initiation.CurrencyOfTransfer`, `Data.Initiation.InstructedAmount.Currency` |
 *
 * @example
 * ```ts
 * import { InternationalPayment, InternationalPaymentCheck } from "@payrules/open-banking"
 * import { Result } from "effect"
 *
 * const payment = Result.getOrThrow(
 *   InternationalPayment.decode("obie-3.1.11", {
 *     Data: {
 *       InternationalPaymentId: "ip-1",
 *       ConsentId: "58923",
 *       CreationDateTime: "2017-06-05T15:15:13+00:00",
 *       Status: "Pending",
 *       StatusUpdateDateTime: "2017-06-05T15:15:13+00:00",
 *       Initiation: {
 *         InstructionIdentification: "ACME412",
 *         EndToEndIdentification: "FRESCO.21302.GFX.20",
 *         CurrencyOfTransfer: "GBP",
 *         InstructedAmount: { Amount: "165.88", Currency: "GBP" },
 *         CreditorAccount: { SchemeName: "UK.OBIE.SortCodeAccountNumber", Identification: "08080021325698", Name: "ACME Inc" },
 *         RemittanceInformation: { Reference: "FRESCO-101-2017-06-05", Unstructured: "Internal ops code 5120101" }
 *       }
 *     }
 *   })
 * )
 * for (const f of InternationalPaymentCheck.check(payment, { profile: "obie-3.1.11" })) console.log(f.rule)
 * // FasterPaymentsReference
 * // UnstructuredIgnored
 * ```
 *
 * @since 0.1.0
 * @category checks
 */
export const check = (
  payment: InternationalPayment.InternationalPayment,
  options?: Options
): ReadonlyArray<Finding> => {
  const out: Array<Finding> = [...unknownValues(payment)]
  const initiation = payment.Data.Initiation
  const debtorCurrency = options?.debtorAccountCurrency
  const dataRate = payment.Data.ExchangeRateInformation
  const initiationRate = initiation.ExchangeRateInformation
  if (dataRate !== undefined) {
    out.push(...notListed(dataRate.UnitCurrency, [...DATA, "ExchangeRateInformation", "UnitCurrency"], ""))
    out.push(...checkRate(dataRate, [...DATA, "ExchangeRateInformation"], initiation, debtorCurrency, false))
    if (initiationRate !== undefined) out.push(...compareRates(dataRate, initiationRate))
  }
  const fps = fasterPayments(payment, options)
  if (fps.applies) {
    const e2e = SchemeLimits.check(
      SchemeLimits.FasterPayments,
      "EndToEndIdentification",
      initiation.EndToEndIdentification
    )
    if (Result.isFailure(e2e)) {
      out.push(
        finding(
          "warning",
          "FasterPaymentsEndToEndIdentification",
          [...INITIATION, "EndToEndIdentification"],
          `${e2e.failure.message}; the payment goes through Faster Payments (${fps.because}), which passes on only the first ${e2e.failure.maxLength}`
        )
      )
    }
  }
  out.push(...notListed(initiation.CurrencyOfTransfer, [...INITIATION, "CurrencyOfTransfer"], ""))
  if (debtorCurrency !== undefined && debtorCurrency === initiation.CurrencyOfTransfer) {
    out.push(
      finding(
        "error",
        "CurrencyOfTransferIsDebtorCurrency",
        [...INITIATION, "CurrencyOfTransfer"],
        `CurrencyOfTransfer ${initiation.CurrencyOfTransfer} is the currency of the debtor account; the specification defines it as different from the currency of the debtor account`
      )
    )
  }
  out.push(
    ...notListed(
      initiation.InstructedAmount.Currency,
      [...INITIATION, "InstructedAmount", "Currency"],
      "; its exponent is unknown, so the scale of the amount is not checked"
    )
  )
  const scale = DecimalAmount.checkScale(initiation.InstructedAmount.Amount, initiation.InstructedAmount.Currency)
  if (Result.isFailure(scale) && scale.failure.reason === "ScaleExceedsExponent") {
    out.push(
      finding(
        "error",
        "AmountScaleExceedsExponent",
        [...INITIATION, "InstructedAmount", "Amount"],
        scale.failure.message
      )
    )
  }
  if (initiationRate !== undefined) {
    out.push(...notListed(initiationRate.UnitCurrency, [...INITIATION, "ExchangeRateInformation", "UnitCurrency"], ""))
    out.push(...checkRate(initiationRate, [...INITIATION, "ExchangeRateInformation"], initiation, debtorCurrency, true))
  }
  const remittance = initiation.RemittanceInformation
  if (remittance?.Reference !== undefined && fps.applies) {
    const reference = SchemeLimits.check(SchemeLimits.FasterPayments, "Reference", remittance.Reference)
    if (Result.isFailure(reference)) {
      out.push(
        finding(
          "warning",
          "FasterPaymentsReference",
          [...INITIATION, "RemittanceInformation", "Reference"],
          `${reference.failure.message}; the payment goes through Faster Payments (${fps.because}), which passes on only the first ${reference.failure.maxLength}`
        )
      )
    }
  }
  if (remittance?.Reference !== undefined && remittance.Unstructured !== undefined) {
    out.push(
      finding(
        "warning",
        "UnstructuredIgnored",
        [...INITIATION, "RemittanceInformation", "Unstructured"],
        "both Reference and Unstructured are given: Unstructured is ignored (give only one reference)"
      )
    )
  }
  if (initiation.DebtorAccount === undefined && (options?.profile ?? "revolut") === "revolut") {
    out.push(
      finding(
        "warning",
        "DebtorAccountMissing",
        [...INITIATION, "DebtorAccount"],
        "DebtorAccount is missing: the specification marks it present (strict decoding refuses this response); the debtor account and its currency are unknown"
      )
    )
  }
  return out
}

/**
 * @since 0.1.0
 * @category getters
 */
export const errors = (findings: ReadonlyArray<Finding>): ReadonlyArray<Finding> =>
  findings.filter((f) => f.severity === "error")

/**
 * @since 0.1.0
 * @category getters
 */
export const warnings = (findings: ReadonlyArray<Finding>): ReadonlyArray<Finding> =>
  findings.filter((f) => f.severity === "warning")

/**
 * A decoded payment with its findings.
 *
 * @since 0.1.0
 * @category models
 */
export interface Checked<P extends Profile> {
  readonly payment: InternationalPayment.PaymentOf<P>
  readonly findings: ReadonlyArray<Finding>
}

/**
 * Decodes a response in a profile and mode and checks it: lenient by default, as a client reads (D11), so that a
 * response without DebtorAccount, with a well-formed currency code that is not on the list, or with an enum value
 * added to the API since (a new status), comes back with a `DebtorAccountMissing`, `CurrencyNotListed` or
 * `UnknownValue` finding instead of an error.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeAndCheck = <P extends Profile>(
  profile: P,
  input: unknown,
  options?: Omit<Options, "profile"> & InternationalPayment.Options
): Result.Result<Checked<P>, Schema.SchemaError> =>
  Result.map(InternationalPayment.decode(profile, input, { mode: options?.mode ?? "lenient" }), (payment) => ({
    payment,
    findings: check(payment, { ...options, profile })
  }))
