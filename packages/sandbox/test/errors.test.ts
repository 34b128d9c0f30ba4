import { describe, expect, it } from "@effect/vitest"
import { OpenBankingApi } from "@payrules/transport"
import * as Errors from "../src/internal/errors.js"
import * as Json from "../src/internal/json.js"

// The error bodies of the sandbox (internal/errors.ts), as each family's clients read them: Open Banking's ErrorCode
// chosen from the status and the issue (a header or a field, missing or invalid), the Id only with an interaction id,
// and what an error body echoes of the input: quoted values and long runs cut, at most MAX_ISSUES issues, long paths
// cut. A body that echoes megabytes of a hostile input, or files a missing header under Field, is the bug each guards.

const now = 1_700_000_000_000
const ob = (status: number, message: string, issues?: ReadonlyArray<Errors.Issue>, interactionId?: string) =>
  Errors.body("open-banking", status, message, {
    now,
    ...(issues === undefined ? {} : { issues }),
    ...(interactionId === undefined ? {} : { interactionId })
  }) as {
    Code: string
    Id?: string
    Message: string
    Errors: ReadonlyArray<{ ErrorCode: string; Message: string; Path?: string }>
  }

const codeOf = (status: number, issue: Errors.Issue) => ob(status, issue.message, [issue]).Errors[0]?.ErrorCode

describe("Open Banking's ErrorCode", () => {
  it("401: Header.Missing when the credential is required and absent, Header.Invalid when it is wrong", () => {
    expect(codeOf(401, { path: [], message: "Authorization: Bearer <token> is required" })).toBe(
      "UK.OBIE.Header.Missing"
    )
    expect(codeOf(401, { path: [], message: "the token is not a tenant's" })).toBe("UK.OBIE.Header.Invalid")
    // without issues the message is the issue
    expect(ob(401, "a token is REQUIRED").Errors).toEqual([
      { ErrorCode: "UK.OBIE.Header.Missing", Message: "a token is REQUIRED" }
    ])
  })

  it("400: Header or Field by the first segment of the path, Missing or Invalid by the message", () => {
    expect(codeOf(400, { path: ["x-fapi-financial-id"], message: "Missing key" })).toBe("UK.OBIE.Header.Missing")
    expect(codeOf(400, { path: ["X-Idempotency-Key"], message: "Expected a string" })).toBe("UK.OBIE.Header.Invalid")
    expect(codeOf(400, { path: ["authorization"], message: "is required" })).toBe("UK.OBIE.Header.Missing")
    // only the header itself: a field whose name starts like it is a field
    expect(codeOf(400, { path: ["authorizationCode"], message: "Expected a string" })).toBe("UK.OBIE.Field.Invalid")
    expect(codeOf(400, { path: ["Data", "Initiation"], message: "Missing key" })).toBe("UK.OBIE.Field.Missing")
    expect(codeOf(400, { path: ["Data", "x-amount"], message: "Expected a number" })).toBe("UK.OBIE.Field.Invalid")
    expect(codeOf(400, { path: [], message: "Expected an object" })).toBe("UK.OBIE.Field.Invalid")
    // the other headers a request may repeat (bug: a repeated Host or Content-Type was called a field)
    for (const header of ["host", "Content-Type", "content-length"]) {
      expect(codeOf(400, { path: [header], message: "given 2 times" }), header).toBe("UK.OBIE.Header.Invalid")
    }
    expect(codeOf(400, { path: ["hostname"], message: "Expected a string" })).toBe("UK.OBIE.Field.Invalid")
  })

  it("each other status its own code, whatever the issue", () => {
    const issue = { path: ["x-fapi-financial-id"], message: "Missing key" }
    expect(codeOf(404, issue)).toBe("UK.OBIE.Resource.NotFound")
    expect(codeOf(405, issue)).toBe("UK.OBIE.Unsupported.Method")
    expect(codeOf(406, issue)).toBe("UK.OBIE.Header.Invalid")
    expect(codeOf(415, issue)).toBe("UK.OBIE.Header.Invalid")
    expect(codeOf(429, issue)).toBe("UK.OBIE.Rules.ResourceLimitExceeded")
    expect(codeOf(500, issue)).toBe("UK.OBIE.UnexpectedError")
    expect(codeOf(503, issue)).toBe("UK.OBIE.UnexpectedError")
  })

  it("no issues: one error of the message, without a Path; an issue at the root: without a Path", () => {
    expect(ob(400, "bad", []).Errors).toEqual([{ ErrorCode: "UK.OBIE.Field.Invalid", Message: "bad" }])
    expect(ob(400, "bad", [{ path: [], message: "Expected an object" }]).Errors).toEqual([
      { ErrorCode: "UK.OBIE.Field.Invalid", Message: "Expected an object" }
    ])
    expect(ob(400, "bad", [{ path: ["Data", 0, "Amount"], message: "m" }]).Errors[0]?.Path).toBe("Data.0.Amount")
  })

  it("Id: the interaction id when there is one, no Id key without it (bug: `Id: undefined` written as a key)", () => {
    expect(ob(400, "m", [], "93bac548-d2de-4546-b106-880a5018460d").Id).toBe("93bac548-d2de-4546-b106-880a5018460d")
    expect(Object.keys(ob(400, "m", []))).toEqual(["Code", "Message", "Errors"])
    const raised = new OpenBankingApi.OpenBankingError({
      status: 403,
      Code: "403 Forbidden",
      Message: "no",
      Errors: []
    })
    const withoutId = Errors.openBankingResponse(raised, undefined)
    const withId = Errors.openBankingResponse(raised, "id-1")
    expect(Object.keys(JSON.parse(new TextDecoder().decode((withoutId.body as { body: Uint8Array }).body)))).toEqual([
      "Code",
      "Message",
      "Errors"
    ])
    expect(JSON.parse(new TextDecoder().decode((withId.body as { body: Uint8Array }).body)).Id).toBe("id-1")
  })
})

describe("what an error body echoes of the input", () => {
  const limit = Json.QUOTE_LIMIT

  it("a quoted value is kept up to QUOTE_LIMIT characters and cut after", () => {
    const kept = "a ".repeat(limit / 2).slice(0, limit)
    const cut = `${kept}b`
    expect(Errors.clipMessage(`Expected a string, got "${kept}" (${"x ".repeat(limit)})`)).toContain(`"${kept}"`)
    expect(Errors.clipMessage(`Expected a string, got "${cut}" (${"x ".repeat(limit)})`)).toContain(`"${kept}…"`)
  })

  it("every run without a space is kept up to QUOTE_LIMIT characters and cut after", () => {
    const run = (n: number, c: string) => c.repeat(n)
    const message = `first ${run(limit, "a")} second ${run(limit + 1, "b")} third ${run(limit + 1, "c")} end`
    expect(Errors.clipMessage(message)).toBe(
      `first ${run(limit, "a")} second ${run(limit, "b")}… third ${run(limit, "c")}… end`
    )
  })

  it("the whole message is cut to MAX_MESSAGE_LENGTH", () => {
    const message = "word ".repeat(1_000)
    expect(Errors.clipMessage(message)).toBe(`${message.slice(0, Errors.MAX_MESSAGE_LENGTH)}…`)
  })

  it("at most MAX_ISSUES issues, a path cut to its first segments, each key cut like a value", () => {
    const issues = Array.from({ length: Errors.MAX_ISSUES + 5 }, (_, i) => ({ path: [`f${i}`], message: `m${i}` }))
    const body = ob(400, "bad", issues)
    expect(body.Errors.map((e) => e.Path)).toEqual(issues.slice(0, Errors.MAX_ISSUES).map((i) => i.path[0]))
    const deep = Array.from({ length: 10 * limit }, (_, i) => (i % 2 === 0 ? "k" : i))
    const long = "k".repeat(limit + 10)
    const [error] = ob(400, "bad", [{ path: [...deep], message: "m" }]).Errors
    expect(error?.Path).toBe(deep.slice(0, 4 * limit).join("."))
    expect(ob(400, "bad", [{ path: [long, 7], message: "m" }]).Errors[0]?.Path).toBe(`${Json.clip(long)}.7`)
  })
})

describe("issuesMessage", () => {
  it("each issue as path: message, (body) for the root, joined with '; ', the first MAX_ISSUES only", () => {
    expect(
      Errors.issuesMessage([
        { path: ["from", "amount"], message: "Expected a number" },
        { path: [], message: "Expected an object" },
        { path: ["to", 0], message: "Missing key" }
      ])
    ).toBe("from.amount: Expected a number; (body): Expected an object; to.0: Missing key")
    const many = Array.from({ length: Errors.MAX_ISSUES + 1 }, (_, i) => ({ path: [`f${i}`], message: "m" }))
    expect(Errors.issuesMessage(many).split("; ")).toHaveLength(Errors.MAX_ISSUES)
  })
})
