/**
 * `pnpm bench` for @payrules/transfers: the compiled field validator against ajv, TypeBox, zod, valibot and an
 * interpreted Effect Schema on one 9-field rule set (valid bodies, invalid bodies with every issue, compiling), and
 * the two regex engines (native RegExp for patterns proven linear, re2js for the others).
 */
import { SchemeLimits } from "@payrules/accounts"
import { run } from "@payrules/bench"
import { Currency } from "@payrules/money"
import { FieldPattern, FieldValidator, type PayFields } from "@payrules/transfers"
import { type TSchema, Type } from "@sinclair/typebox"
import { TypeCompiler } from "@sinclair/typebox/compiler"
import { Ajv } from "ajv"
import { Result, Schema, SchemaIssue } from "effect"
import { RE2JS } from "re2js"
import * as v from "valibot"
import { z } from "zod"

// ---------------------------------------------------------------------------------------------------------------------
// one rule set: 3 dotted receiver address fields, 5 patterns, 2 option lists (a SWIFT corridor)
// ---------------------------------------------------------------------------------------------------------------------

const reasons = [
  "advertising",
  "advisory_fees",
  "business_insurance",
  "construction",
  "delivery",
  "education",
  "exports",
  "family",
  "fund_investment",
  "hotel",
  "medical",
  "property_purchase"
]

const rules: ReadonlyArray<PayFields.FieldRequirement> = [
  { name: "receiver.address.street_line1", required: true, validation: { min_length: 1, max_length: 35 } },
  {
    name: "receiver.address.city",
    required: true,
    validation: { max_length: 35, regex: { pattern: "[A-Za-z .'-]{1,35}", description: "letters, spaces, . ' and -" } }
  },
  {
    name: "receiver.address.postcode",
    required: true,
    validation: { regex: { pattern: "[A-Z0-9 ]{3,10}", description: "3 to 10 capital letters, digits or spaces" } }
  },
  {
    name: "reference",
    required: true,
    validation: {
      max_length: 140,
      regex: { pattern: "[A-Za-z0-9 /?:().,'+-]{1,140}", description: "the SWIFT character set, 1 to 140 characters" }
    }
  },
  {
    name: "charge_bearer",
    required: true,
    options: [{ value: "shared", default: true }, { value: "debtor" }, { value: "prefer_debtor" }]
  },
  { name: "transfer_reason_code", required: true, options: reasons.map((value) => ({ value })) },
  {
    name: "bic",
    required: true,
    validation: { regex: { pattern: "[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?", description: "a BIC: 8 or 11 characters" } }
  },
  {
    name: "purpose_code",
    required: false,
    validation: { regex: { pattern: "[A-Z]{4}", description: "an ISO 20022 purpose code: 4 capital letters" } }
  },
  { name: "invoice_number", required: false, validation: { min_length: 1, max_length: 35 } }
]

const options: FieldValidator.Options = { schemes: [SchemeLimits.Swift], unknownFields: "error" }

const valid = [0, 1, 2, 3].map((i) => ({
  amount: 1250.5 + i,
  currency: ["EUR", "USD", "GBP", "CHF"][i]!,
  account_id: "7998c9e4-1c8f-4c33-9b7c-7e1a9f3d9e01",
  receiver: {
    counterparty_id: "0f7bd9f3-5a4c-4b2a-8b57-4a6d1b0e2c11",
    account_id: "db7c73d3-b0df-4d6f-8b74-3a2e1f0c9d8e",
    address: { street_line1: `${10 + i} Downing Street`, city: "London", postcode: "SW1A 2AA" }
  },
  request_id: `e0cbf846-3726-4ee0-82a8-48b1c2d3e4f${i}`,
  reference: `Invoice 2024/${17 + i} (March)`,
  charge_bearer: ["shared", "debtor", "prefer_debtor", "shared"][i]!,
  transfer_reason_code: reasons[i * 3]!,
  bic: ["DEUTDEFF", "DEUTDEFF500", "NWBKGB2L", "UBSWCHZH80A"][i]!,
  ...(i % 2 === 0 ? { purpose_code: "SUPP" } : {})
}))

/** seven faults: amount, currency, an empty street, a postcode, the reference, an option, the BIC */
const invalid = valid.map((b, i) => ({
  ...b,
  amount: -b.amount,
  currency: "eur",
  receiver: { ...b.receiver, address: { street_line1: "", city: "London", postcode: "sw1a" } },
  reference: `Invoice #${i} ~ March`,
  charge_bearer: "ours",
  bic: "DEUT"
}))

const cycle = <A>(xs: ReadonlyArray<A>, f: (x: A) => unknown) => {
  let i = 0
  return () => f(xs[i++ % xs.length]!)
}

// ---------------------------------------------------------------------------------------------------------------------
// the peers, built from the same rules (patterns anchored, as the rules mean them)
// ---------------------------------------------------------------------------------------------------------------------

const codes = Currency.all.map((c) => c.code as string)
const anchored = (p: string) => `^(?:${p})$`
type Rule = PayFields.FieldRequirement

const isOptionRule = (r: Rule): r is Rule & { options: ReadonlyArray<PayFields.FieldOption> } => r.options !== undefined
const byName = (prefix: string) =>
  rules
    .filter((r) => r.name.startsWith(prefix))
    .map((r) => [r.name.slice(prefix.length), r] as const)
    .filter(([n]) => !n.includes("."))

// JSON Schema (ajv)
const jsonString = (r: Rule): Record<string, unknown> =>
  isOptionRule(r)
    ? { type: "string", enum: r.options.map((o) => o.value) }
    : {
        type: "string",
        ...(r.validation?.min_length === undefined ? {} : { minLength: r.validation.min_length }),
        ...(r.validation?.max_length === undefined ? {} : { maxLength: r.validation.max_length }),
        ...(r.validation?.regex === undefined ? {} : { pattern: anchored(r.validation.regex.pattern) })
      }
const jsonObject = (
  entries: ReadonlyArray<readonly [string, Rule]>,
  base: Record<string, unknown>,
  required: Array<string>
) => ({
  type: "object",
  additionalProperties: false,
  required: [...required, ...entries.filter(([, r]) => r.required).map(([n]) => n)],
  properties: { ...base, ...Object.fromEntries(entries.map(([n, r]) => [n, jsonString(r)])) }
})
const nonEmpty = { type: "string", minLength: 1 }
/**
 * request_id without control characters, as ours checks it (ours also refuses lone surrogates, which a pattern with
 * the `u` flag cannot say): the same pattern as the JSON Schema of ours
 */
const textPattern = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"
const textRegExp = new RegExp(textPattern, "u")
const jsonSchema = () =>
  jsonObject(
    byName(""),
    {
      amount: { type: "number", exclusiveMinimum: 0 },
      currency: { type: "string", enum: codes },
      account_id: nonEmpty,
      request_id: { type: "string", minLength: 1, maxLength: 40, pattern: textPattern },
      receiver: {
        ...jsonObject(
          [],
          {
            counterparty_id: nonEmpty,
            account_id: nonEmpty,
            card_id: nonEmpty,
            address: jsonObject(byName("receiver.address."), {}, [])
          },
          ["counterparty_id", "address"]
        ),
        not: { required: ["account_id", "card_id"] }
      }
    },
    ["amount", "currency", "account_id", "receiver", "request_id"]
  )
const ajvCompile = (allErrors: boolean) => new Ajv({ allErrors }).compile(jsonSchema())
const ajvAll = ajvCompile(true)
const ajvFirst = ajvCompile(false)

// TypeBox (the receiver's "not both" as a union of its two shapes)
const tbString = (r: Rule): TSchema =>
  isOptionRule(r)
    ? Type.Union(r.options.map((o) => Type.Literal(o.value)))
    : Type.String({
        ...(r.validation?.min_length === undefined ? {} : { minLength: r.validation.min_length }),
        ...(r.validation?.max_length === undefined ? {} : { maxLength: r.validation.max_length }),
        ...(r.validation?.regex === undefined ? {} : { pattern: anchored(r.validation.regex.pattern) })
      })
const tbFields = (entries: ReadonlyArray<readonly [string, Rule]>) =>
  Object.fromEntries(entries.map(([n, r]) => [n, r.required ? tbString(r) : Type.Optional(tbString(r))]))
const typebox = () => {
  const address = Type.Object(tbFields(byName("receiver.address.")), { additionalProperties: false })
  const id = Type.String({ minLength: 1 })
  const receiver = Type.Union([
    Type.Object({ counterparty_id: id, account_id: Type.Optional(id), address }, { additionalProperties: false }),
    Type.Object({ counterparty_id: id, card_id: id, address }, { additionalProperties: false })
  ])
  return TypeCompiler.Compile(
    Type.Object(
      {
        amount: Type.Number({ exclusiveMinimum: 0 }),
        currency: Type.Union(codes.map((c) => Type.Literal(c))),
        account_id: id,
        receiver,
        request_id: Type.String({ minLength: 1, maxLength: 40, pattern: textPattern }),
        ...tbFields(byName(""))
      },
      { additionalProperties: false }
    )
  )
}
const tb = typebox()

// zod 4
const zString = (r: Rule): z.ZodType => {
  if (isOptionRule(r)) return z.enum(r.options.map((o) => o.value) as [string, ...Array<string>])
  let s = z.string()
  if (r.validation?.min_length !== undefined) s = s.min(r.validation.min_length)
  if (r.validation?.max_length !== undefined) s = s.max(r.validation.max_length)
  if (r.validation?.regex !== undefined) s = s.regex(new RegExp(anchored(r.validation.regex.pattern), "u"))
  return s
}
const zFields = (entries: ReadonlyArray<readonly [string, Rule]>) =>
  Object.fromEntries(entries.map(([n, r]) => [n, r.required ? zString(r) : zString(r).optional()]))
const zodSchema = () => {
  const id = z.string().min(1)
  return z.strictObject({
    amount: z.number().positive(),
    currency: z.enum(codes as [string, ...Array<string>]),
    account_id: id,
    receiver: z
      .strictObject({
        counterparty_id: id,
        account_id: id.optional(),
        card_id: id.optional(),
        address: z.strictObject(zFields(byName("receiver.address.")))
      })
      .refine((r) => r.account_id === undefined || r.card_id === undefined),
    request_id: z.string().min(1).max(40).regex(textRegExp),
    ...zFields(byName(""))
  })
}
const zodB = zodSchema()

// valibot
const vString = (r: Rule) => {
  if (isOptionRule(r)) return v.picklist(r.options.map((o) => o.value))
  const checks: Array<v.PipeItem<string, string, v.BaseIssue<unknown>>> = []
  if (r.validation?.min_length !== undefined) checks.push(v.minLength(r.validation.min_length))
  if (r.validation?.max_length !== undefined) checks.push(v.maxLength(r.validation.max_length))
  if (r.validation?.regex !== undefined) checks.push(v.regex(new RegExp(anchored(r.validation.regex.pattern), "u")))
  return v.pipe(v.string(), ...checks)
}
const vFields = (entries: ReadonlyArray<readonly [string, Rule]>) =>
  Object.fromEntries(entries.map(([n, r]) => [n, r.required ? vString(r) : v.optional(vString(r))]))
const valibotSchema = () => {
  const id = v.pipe(v.string(), v.minLength(1))
  return v.strictObject({
    amount: v.pipe(v.number(), v.gtValue(0)),
    currency: v.picklist(codes),
    account_id: id,
    receiver: v.pipe(
      v.strictObject({
        counterparty_id: id,
        account_id: v.optional(id),
        card_id: v.optional(id),
        address: v.strictObject(vFields(byName("receiver.address.")))
      }),
      v.check((r) => r.account_id === undefined || r.card_id === undefined)
    ),
    request_id: v.pipe(v.string(), v.minLength(1), v.maxLength(40), v.regex(textRegExp)),
    ...vFields(byName(""))
  })
}
const valibotB = valibotSchema()

// Effect Schema, interpreted, written the usual way
const eString = (r: Rule): Schema.Codec<string> => {
  if (isOptionRule(r)) return Schema.Literals(r.options.map((o) => o.value))
  let s: Schema.Codec<string> = Schema.String
  if (r.validation?.min_length !== undefined) s = s.check(Schema.isMinLength(r.validation.min_length))
  if (r.validation?.max_length !== undefined) s = s.check(Schema.isMaxLength(r.validation.max_length))
  if (r.validation?.regex !== undefined)
    s = s.check(Schema.isPattern(new RegExp(anchored(r.validation.regex.pattern), "u")))
  return s
}
const eFields = (entries: ReadonlyArray<readonly [string, Rule]>) =>
  Object.fromEntries(entries.map(([n, r]) => [n, r.required ? eString(r) : Schema.optionalKey(eString(r))]))
const effectSchema = () => {
  const id = Schema.String.check(Schema.isMinLength(1))
  return Schema.Struct({
    amount: Schema.Number.check(Schema.isGreaterThan(0)),
    currency: Schema.Literals(codes),
    account_id: id,
    receiver: Schema.Struct({
      counterparty_id: id,
      account_id: Schema.optionalKey(id),
      card_id: Schema.optionalKey(id),
      address: Schema.Struct(eFields(byName("receiver.address.")))
    }).check(Schema.makeFilter((r) => r.account_id === undefined || r.card_id === undefined)),
    request_id: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(40), Schema.isPattern(textRegExp)),
    ...eFields(byName(""))
  })
}
const effectDecode = Schema.decodeUnknownResult(effectSchema(), { errors: "all", onExcessProperty: "error" })
/** the first segment of the path of each issue */
const standardIssues = SchemaIssue.makeFormatterStandardSchemaV1()
const topPaths = (e: Schema.SchemaError) =>
  standardIssues(e.issue).issues.map((i) => {
    const first = i.path?.[0]
    return first === undefined ? undefined : String(typeof first === "object" ? first.key : first)
  })

// ours
const ours = Result.getOrThrow(FieldValidator.compile(rules, options))

// ---------------------------------------------------------------------------------------------------------------------
// checks: every contender accepts every valid body and finds the faults of every invalid one
// ---------------------------------------------------------------------------------------------------------------------

/** each valid body with a control character in its request_id: every contender must refuse them */
const controlIds = valid.map((b, i) => ({ ...b, request_id: `${b.request_id.slice(0, 8)}${String.fromCharCode(i)}` }))
const accepts = (f: (b: unknown) => boolean) => () => valid.every(f) && !invalid.some(f) && !controlIds.some(f)
/** the top-level fields with a fault in every invalid body (TypeBox reports the receiver's union once) */
const faulty = ["amount", "bic", "charge_bearer", "currency", "receiver", "reference"].join()
const reportsAll = (paths: (b: unknown) => ReadonlyArray<string | number | undefined>) => () =>
  invalid.every((b) => [...new Set(paths(b).map(String))].sort().join() === faulty)
const pointer = (p: string) => p.split("/")[1]

const oursOk = (b: unknown) => Result.isSuccess(ours.validate(b))
const oursSchema = Schema.decodeUnknownResult(ours.schema, { errors: "all" })
const oursSchemaOk = (b: unknown) => Result.isSuccess(oursSchema(b))
const ajvAllOk = (b: unknown) => ajvAll(b)
const ajvFirstOk = (b: unknown) => ajvFirst(b)
const tbOk = (b: unknown) => tb.Check(b)
const zodOk = (b: unknown) => zodB.safeParse(b).success
const valibotOk = (b: unknown) => v.safeParse(valibotB, b).success
const effectOk = (b: unknown) => Result.isSuccess(effectDecode(b))

await run("FieldValidator: a 9-field rule set (3 nested address fields, 5 patterns, 2 option lists) + the base", [
  {
    name: "valid body",
    unit: "one body",
    contenders: [
      { name: "FieldValidator.validate", ours: true, fn: cycle(valid, ours.validate), check: accepts(oursOk) },
      { name: "ajv (allErrors: true)", fn: cycle(valid, ajvAllOk), check: accepts(ajvAllOk) },
      { name: "ajv (allErrors: false)", fn: cycle(valid, ajvFirstOk), check: accepts(ajvFirstOk) },
      { name: "TypeBox TypeCompiler", fn: cycle(valid, tbOk), check: accepts(tbOk) },
      { name: "zod 4", fn: cycle(valid, zodOk), check: accepts(zodOk) },
      { name: "valibot", fn: cycle(valid, valibotOk), check: accepts(valibotOk) },
      { name: "Effect Schema (interpreted)", fn: cycle(valid, effectOk), check: accepts(effectOk) },
      { name: "FieldValidator.schema (interpreted)", fn: cycle(valid, oursSchemaOk), check: accepts(oursSchemaOk) }
    ]
  },
  {
    name: "invalid body, all issues",
    unit: "one body with 7 faults, every issue collected",
    contenders: [
      {
        name: "FieldValidator.validate",
        ours: true,
        fn: cycle(invalid, ours.validate),
        check: reportsAll((b) =>
          Result.match(ours.validate(b), { onFailure: (i) => i.map((x) => x.path[0]), onSuccess: () => [] })
        )
      },
      {
        name: "ajv (allErrors: true)",
        fn: cycle(invalid, (b) => ajvAll(b) || ajvAll.errors),
        check: reportsAll((b) => (ajvAll(b) ? [] : (ajvAll.errors ?? []).map((e) => pointer(e.instancePath))))
      },
      {
        name: "TypeBox TypeCompiler (Errors)",
        fn: cycle(invalid, (b) => [...tb.Errors(b)]),
        check: reportsAll((b) => [...tb.Errors(b)].map((e) => pointer(e.path)))
      },
      {
        name: "zod 4",
        fn: cycle(invalid, (b) => zodB.safeParse(b)),
        check: reportsAll((b) => (zodB.safeParse(b).error?.issues ?? []).map((i) => i.path[0] as string))
      },
      {
        name: "valibot",
        fn: cycle(invalid, (b) => v.safeParse(valibotB, b)),
        check: reportsAll((b) => (v.safeParse(valibotB, b).issues ?? []).map((i) => i.path?.[0]?.key as string))
      },
      {
        name: "Effect Schema (interpreted)",
        fn: cycle(invalid, effectDecode),
        check: reportsAll((b) => Result.match(effectDecode(b), { onFailure: topPaths, onSuccess: () => [] }))
      },
      {
        name: "FieldValidator.schema (interpreted)",
        fn: cycle(invalid, oursSchema),
        check: reportsAll((b) => Result.match(oursSchema(b), { onFailure: topPaths, onSuccess: () => [] }))
      }
    ]
  },
  {
    name: "compile",
    unit: "rules to a ready validator",
    contenders: [
      {
        name: "FieldValidator.compile",
        ours: true,
        fn: () => FieldValidator.compile(rules, options),
        check: () => Result.isSuccess(FieldValidator.compile(rules, options))
      },
      {
        name: "ajv (allErrors: true)",
        fn: () => ajvCompile(true),
        check: () => {
          const f = ajvCompile(true)
          return valid.every((b) => f(b))
        }
      },
      { name: "TypeBox TypeCompiler", fn: typebox, check: () => valid.every((b) => typebox().Check(b)) },
      {
        name: "zod 4 (building the schema)",
        fn: zodSchema,
        check: () => valid.every((b) => zodSchema().safeParse(b).success)
      },
      {
        name: "valibot (building the schema)",
        fn: valibotSchema,
        check: () => valid.every((b) => v.safeParse(valibotSchema(), b).success)
      },
      {
        name: "Effect Schema (building the schema)",
        fn: effectSchema,
        check: () => valid.every((b) => Result.isSuccess(Schema.decodeUnknownResult(effectSchema())(b)))
      }
    ]
  }
])

// ---------------------------------------------------------------------------------------------------------------------
// the engines
// ---------------------------------------------------------------------------------------------------------------------

const enginesCase = (pattern: string, inputs: ReadonlyArray<string>) => {
  const compiled = FieldPattern.compileUnsafe(pattern)
  const re2 = RE2JS.compile(compiled.re2Source)
  const native = new RegExp(anchored(pattern), "u")
  const verdicts = inputs.map((s) => native.test(s))
  const same = (f: (s: string) => boolean) => () => inputs.every((s, i) => f(s) === verdicts[i])
  return {
    name: `${pattern} (${compiled.engine})`,
    unit: "one whole-value match",
    contenders: [
      { name: "FieldPattern.test", ours: true, fn: cycle(inputs, compiled.test), check: same(compiled.test) },
      { name: "re2js testExact", fn: cycle(inputs, (s) => re2.testExact(s)), check: same((s) => re2.testExact(s)) },
      { name: "RegExp (u)", fn: cycle(inputs, (s) => native.test(s)), check: same((s) => native.test(s)) }
    ]
  }
}

await run("FieldPattern: whole-value matches of the rule set's patterns", [
  enginesCase("[A-Za-z .'-]{1,35}", ["London", "Saint-Denis", "O'Fallon", "Zürich"]),
  enginesCase("[A-Z0-9 ]{3,10}", ["SW1A 2AA", "75008", "sw1a", "8001"]),
  enginesCase("[A-Za-z0-9 /?:().,'+-]{1,140}", valid.map((b) => b.reference).concat(invalid.map((b) => b.reference))),
  enginesCase("[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?", ["DEUTDEFF", "DEUTDEFF500", "DEUT", "NWBKGB2LX"]),
  enginesCase("\\d{27}", ["210000000003139471430009017", "21000000000313947143000901", "21000000000313947143000901x"])
])

const hostile = [
  "^(a+)+$",
  "^(a|a)*$",
  "^([a-zA-Z0-9]+[-. ]?)*[a-zA-Z0-9]+$",
  "^.*a.*a.*a.*$",
  "(x+x+)+y",
  "^(\\w+\\s?)*$",
  "(a|aa)+",
  "(.*a){12}",
  "^(([a-z])+.)+[A-Z]([a-z])+$",
  "(\\d+)*$"
]
const long = `${"a".repeat(10_000)}!`
await run(
  "FieldPattern: 10 catastrophic patterns on a 10,001-character value (re2js; native RegExp would not return)",
  [
    {
      name: "10 patterns x 10,001 characters",
      unit: "all ten verdicts",
      contenders: (() => {
        const compiled = hostile.map(FieldPattern.compileUnsafe)
        const direct = compiled.map((p) => RE2JS.compile(p.re2Source))
        return [
          {
            name: "FieldPattern.test",
            ours: true,
            fn: () => compiled.map((p) => p.test(long)),
            check: () =>
              compiled.every((p) => p.engine === "re2") &&
              compiled.map((p) => p.test(long)).join() === direct.map((r) => r.testExact(long)).join()
          },
          { name: "re2js testExact", fn: () => direct.map((r) => r.testExact(long)) }
        ]
      })()
    }
  ]
)
