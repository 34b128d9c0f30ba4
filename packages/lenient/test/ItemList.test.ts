import { describe, expect, it } from "@effect/vitest"
import { ItemList } from "@payrules/lenient"
import { Schema } from "effect"
import fc from "fast-check"

const Item = Schema.Struct({ id: Schema.String, amount: Schema.Number })
type Item = typeof Item.Type
const item: fc.Arbitrary<Item> = fc.record({
  id: fc.string(),
  amount: fc.double({ noNaN: true, noDefaultInfinity: true })
})

/** values that are not an Item: wrong types, missing keys, not an object */
const corrupted = fc.oneof(
  fc.record({ id: fc.integer(), amount: fc.double() }),
  fc.record({ id: fc.string() }),
  fc.constantFrom(null, 1, "x", [], true)
)

describe("ItemList.decode", () => {
  const read = ItemList.decode(Item, { prefix: ["items"] })

  it("a list whose items all decode reads as Schema.Array would", () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 20 }), (items) => {
        expect(read(items)).toStrictEqual({
          items: Schema.decodeUnknownSync(Schema.Array(Item))(items),
          indices: items.map((_, i) => i),
          unreadable: []
        })
      })
    )
  })

  it("property: one corrupted item anywhere costs only that item; it is reported with its index, path and raw value", () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 20 }), corrupted, fc.nat(), (items, bad, at) => {
        const index = at % (items.length + 1)
        const list = [...items.slice(0, index), bad, ...items.slice(index)]
        const { items: readable, unreadable } = read(list)
        expect(readable).toStrictEqual(Schema.decodeUnknownSync(Schema.Array(Item))(items))
        expect(unreadable).toHaveLength(1)
        expect(unreadable[0]!.index).toBe(index)
        expect(read(list).indices).toStrictEqual(list.map((_, i) => i).filter((i) => i !== index))
        expect(unreadable[0]!.raw).toBe(bad)
        expect(unreadable[0]!.path.slice(0, 2)).toStrictEqual(["items", index])
        expect(unreadable[0]!.message.length).toBeGreaterThan(0)
      })
    )
  })

  it("the path goes down to the field that broke", () => {
    const { unreadable } = read([
      { id: "a", amount: 1 },
      { id: "b", amount: "1" }
    ])
    expect(unreadable).toStrictEqual([
      { index: 1, path: ["items", 1, "amount"], message: "Expected number", raw: { id: "b", amount: "1" } }
    ])
  })

  it("never throws, whatever the items are", () => {
    fc.assert(
      fc.property(fc.array(fc.anything(), { maxLength: 10 }), (list) => {
        const { items, unreadable } = ItemList.decode(Item)(list)
        expect(items.length + unreadable.length).toBe(list.length)
        expect(ItemList.decode(Item)(list).indices).toHaveLength(items.length)
        for (const u of unreadable) expect(u.path[0]).toBe(u.index)
      })
    )
  })
})

describe("ItemList.decode cost", () => {
  /** Item, with a filter that counts the items it sees */
  const counting = () => {
    const seen = { count: 0 }
    const schema = Item.check(
      Schema.makeFilter(() => {
        seen.count++
        return undefined
      })
    )
    return { read: ItemList.decode(schema), seen }
  }

  it("a list whose items all decode is read once: each item is decoded once, not again item by item", () => {
    const { read, seen } = counting()
    const list = [
      { id: "a", amount: 1 },
      { id: "b", amount: 2 },
      { id: "c", amount: 3 }
    ]
    expect(read(list).items).toHaveLength(3)
    expect(seen.count).toBe(3)
  })

  it("a list with an unreadable item is read again item by item: every readable item is kept", () => {
    const { read, seen } = counting()
    const list = [{ id: "a", amount: 1 }, { id: "b" }, { id: "c", amount: 3 }]
    const { indices, items, unreadable } = read(list)
    expect(items.map((i) => i.id)).toStrictEqual(["a", "c"])
    expect(indices).toStrictEqual([0, 2])
    expect(unreadable.map((u) => u.index)).toStrictEqual([1])
    // the whole-list read stops at the item that breaks (after the first one); then each readable item once
    expect(seen.count).toBe(3)
  })
})

describe("ItemList.finding", () => {
  it("reports an unreadable item as a warning with its index, path and raw value, in the reader's words", () => {
    const [unreadable] = ItemList.decode(Item, { prefix: ["items"] })([{ id: 1, amount: 2 }]).unreadable
    expect(ItemList.finding(unreadable!, "item 0 was left out")).toStrictEqual({
      severity: "warning",
      rule: "UnreadableItem",
      path: ["items", 0, "id"],
      message: "item 0 was left out",
      index: 0,
      raw: { id: 1, amount: 2 }
    })
  })
})
