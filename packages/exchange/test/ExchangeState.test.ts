import { describe, expect, it } from "@effect/vitest"
import { ExchangeState } from "@payrules/exchange"
import { schemaLaws } from "@payrules/vitest"
import { Result } from "effect"
import fc from "fast-check"

type State = ExchangeState.State

const S: ReadonlyArray<State> = ["created", "pending", "completed", "declined", "failed", "reverted"]

// D5, written out again here as the reference for the tests
const edges: ReadonlyArray<readonly [State, State]> = [
  ["created", "pending"],
  ["created", "completed"],
  ["created", "declined"],
  ["created", "failed"],
  ["pending", "completed"],
  ["pending", "declined"],
  ["pending", "failed"],
  ["pending", "reverted"],
  ["completed", "reverted"]
]

/** brute force: is there a path of one or more edges from a to b? */
const reaches = (a: State, b: State): boolean => {
  const frontier = [a]
  const seen = new Set<State>()
  while (frontier.length > 0) {
    const s = frontier.pop()!
    for (const [x, y] of edges) {
      if (x === s && !seen.has(y)) {
        seen.add(y)
        frontier.push(y)
      }
    }
  }
  return seen.has(b)
}

const referenceAccepts = (xs: ReadonlyArray<State>): number | undefined => {
  for (let i = 0; i + 1 < xs.length; i++) if (!(xs[i] === xs[i + 1] || reaches(xs[i]!, xs[i + 1]!))) return i
  return undefined
}

type Expected = "ok" | ExchangeState.TransitionFailure

// every ordered pair: rows are `from`, columns `to`, in the order of S
const matrix: Record<State, ReadonlyArray<Expected>> = {
  created: ["Unchanged", "ok", "ok", "ok", "ok", "Indirect"],
  pending: ["Unreachable", "Unchanged", "ok", "ok", "ok", "ok"],
  completed: ["Unreachable", "Unreachable", "Unchanged", "Unreachable", "Unreachable", "ok"],
  declined: ["Terminal", "Terminal", "Terminal", "Terminal", "Terminal", "Terminal"],
  failed: ["Terminal", "Terminal", "Terminal", "Terminal", "Terminal", "Terminal"],
  reverted: ["Terminal", "Terminal", "Terminal", "Terminal", "Terminal", "Terminal"]
}

const pairs = S.flatMap((from) => S.map((to, j) => [from, to, matrix[from][j]!] as const))

describe("ExchangeState.transition", () => {
  it("covers all 36 ordered pairs, 9 of them legal", () => {
    expect(pairs).toHaveLength(36)
    expect(pairs.filter(([, , e]) => e === "ok")).toHaveLength(edges.length)
  })

  it.each(pairs)("%s -> %s: %s", (from, to, expected) => {
    const result = ExchangeState.transition(from, to)
    if (expected === "ok") {
      expect(result).toEqual(Result.succeed(to))
      expect(ExchangeState.canTransition(from, to)).toBe(true)
      expect(edges.some(([x, y]) => x === from && y === to)).toBe(true)
    } else {
      const e = Result.getOrThrow(Result.flip(result))
      expect(e._tag).toBe("ExchangeIllegalTransition")
      expect(e).toMatchObject({ from, to, reason: expected })
      expect(e.message).toContain(from)
      expect(ExchangeState.canTransition(from, to)).toBe(false)
    }
  })

  it("explains indirect and impossible moves", () => {
    const message = (from: State, to: State) =>
      Result.getOrThrow(Result.flip(ExchangeState.transition(from, to))).message
    expect(message("created", "reverted")).toBe(
      "created to reverted is not one transition: it passes through pending or completed"
    )
    expect(message("completed", "pending")).toBe(
      "pending never follows completed (from completed an exchange moves to reverted)"
    )
    expect(message("failed", "completed")).toBe(
      "failed is terminal: an exchange transaction does not move from failed to completed"
    )
  })

  it("the exported table is D5", () => {
    const fromTable = S.flatMap((from) => ExchangeState.table[from].map((to) => [from, to] as const))
    expect(new Set(fromTable.map((p) => p.join(">")))).toEqual(new Set(edges.map((p) => p.join(">"))))
    expect(ExchangeState.states).toEqual(S)
  })
})

describe("ExchangeState.isTerminal and reachable", () => {
  it.each([
    ["created", false, ["pending", "completed", "declined", "failed", "reverted"]],
    ["pending", false, ["completed", "declined", "failed", "reverted"]],
    ["completed", false, ["reverted"]],
    ["declined", true, []],
    ["failed", true, []],
    ["reverted", true, []]
  ] as const)("%s: terminal %s, reaches %j", (state, terminal, reach) => {
    expect(ExchangeState.isTerminal(state)).toBe(terminal)
    expect(ExchangeState.reachable(state)).toEqual(new Set(reach))
  })

  it("reachable agrees with the brute-force closure", () => {
    for (const a of S) for (const b of S) expect(ExchangeState.reachable(a).has(b)).toBe(reaches(a, b))
  })

  it("isState", () => {
    expect(S.every(ExchangeState.isState)).toBe(true)
    for (const u of ["Created", "toString", "", 1, null]) expect(ExchangeState.isState(u)).toBe(false)
  })

  schemaLaws("ExchangeState.State", ExchangeState.State)
})

describe("ExchangeState.checkHistory", () => {
  it.each([
    [[], undefined],
    [["created"], undefined],
    [["created", "created", "pending", "pending", "completed"], undefined],
    [["created", "reverted"], undefined],
    [["pending", "reverted", "reverted"], undefined],
    [["created", "completed", "reverted"], undefined],
    [["completed", "pending"], 0],
    [["created", "pending", "created"], 1],
    [["created", "declined", "completed"], 1],
    [["created", "completed", "failed"], 1]
  ] as const)("%j: first offending pair at %s", (history, index) => {
    const result = ExchangeState.checkHistory(history)
    if (index === undefined) {
      expect(result).toEqual(Result.succeed(history))
    } else {
      expect(Result.getOrThrow(Result.flip(result))).toMatchObject({
        _tag: "ExchangeInvalidHistory",
        index,
        from: history[index],
        to: history[index + 1]
      })
    }
  })

  it("names the reason", () => {
    const error = (h: ReadonlyArray<State>) => Result.getOrThrow(Result.flip(ExchangeState.checkHistory(h)))
    expect(error(["declined", "completed"])).toMatchObject({ reason: "Terminal" })
    expect(error(["completed", "pending"])).toMatchObject({
      reason: "Unreachable",
      message: "observed pending after completed at index 1, but pending never follows completed"
    })
  })

  const anyStates = fc.array(fc.constantFrom(...S), { maxLength: 8 })
  // walks along the table, with states repeated (seen twice) and dropped (missed between two polls)
  const walks = fc
    .tuple(fc.constantFrom(...S), fc.array(fc.tuple(fc.nat(), fc.nat(2)), { maxLength: 8 }))
    .map(([start, steps]) => {
      const out: Array<State> = [start]
      let current = start
      for (const [pick, action] of steps) {
        const next = ExchangeState.table[current]
        if (action === 0 || next.length === 0) {
          out.push(current)
          continue
        }
        current = next[pick % next.length]!
        if (action === 1) out.push(current)
      }
      return out
    })

  it("accepts a sequence exactly when each pair is a repeat or reachable (brute-force reference)", () => {
    let accepted = 0
    let refused = 0
    fc.assert(
      fc.property(fc.oneof(anyStates, walks), (history) => {
        const expected = referenceAccepts(history)
        const result = ExchangeState.checkHistory(history)
        if (expected === undefined) {
          accepted++
          expect(Result.isSuccess(result)).toBe(true)
        } else {
          refused++
          const e = Result.getOrThrow(Result.flip(result))
          expect([e.index, e.from, e.to]).toEqual([expected, history[expected], history[expected + 1]])
        }
      }),
      { numRuns: 3000 }
    )
    expect(accepted).toBeGreaterThan(300)
    expect(refused).toBeGreaterThan(300)
  })
})

describe("ExchangeState.toMermaid", () => {
  it("renders every transition of the table, the start and the terminal states", () => {
    const lines = ExchangeState.toMermaid().split("\n")
    expect(lines[0]).toBe("stateDiagram-v2")
    expect(lines).toContain("  [*] --> created")
    for (const [from, to] of edges) expect(lines).toContain(`  ${from} --> ${to}`)
    for (const s of ["declined", "failed", "reverted"]) expect(lines).toContain(`  ${s} --> [*]`)
    expect(lines).toHaveLength(2 + edges.length + 3)
  })
})

describe("ExchangeState edges (named after the bugs they guard)", () => {
  it('isState refuses a value that only reads as a state, such as ["created"] (bug: a guard that trusts String(u))', () => {
    for (const u of [["created"], { toString: () => "pending" }, new String("completed")]) {
      expect(ExchangeState.isState(u)).toBe(false)
    }
  })

  it("an impossible move lists every state the exchange may move to instead (bug: the states run together)", () => {
    const e = Result.getOrThrow(Result.flip(ExchangeState.transition("pending", "created")))
    expect(e.reason).toBe("Unreachable")
    expect(e.message).toBe(
      "created never follows pending (from pending an exchange moves to completed, declined, failed, reverted)"
    )
  })

  it("a history that goes on after a terminal state says where, counting from 0 (bug: an empty message or the wrong index)", () => {
    const e = Result.getOrThrow(Result.flip(ExchangeState.checkHistory(["created", "pending", "failed", "completed"])))
    expect(e).toMatchObject({ reason: "Terminal", index: 2, from: "failed", to: "completed" })
    expect(e.message).toBe("observed completed after failed at index 3, but failed is terminal")
  })
})

describe("ExchangeState.isKnown and isUnknown", () => {
  it("every state of this version is known, none unknown (bug: a known state taken for one added since)", () => {
    for (const s of S) {
      expect(ExchangeState.isKnown(s)).toBe(true)
      expect(ExchangeState.isUnknown(s)).toBe(false)
      expect(ExchangeState.valueOf(s)).toBe(s)
    }
  })
})
