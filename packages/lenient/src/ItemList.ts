/**
 * Lists read from a server that keep what they can read (D11, issue 34): each item is decoded on its own, the items
 * that decode are returned in their order, and each item that does not is reported with its index, the path and
 * message of what broke, and its raw value. One malformed record never costs the caller the rest of the page.
 *
 * @since 0.1.0
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"

/**
 * An item that did not decode.
 *
 * @since 0.1.0
 * @category models
 */
export interface Unreadable {
  /** its index in the list as sent */
  readonly index: number
  /** the path of what broke, from the list's owner: `prefix`, the index, then the path inside the item */
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
  /** the item as sent */
  readonly raw: unknown
}

/**
 * What a list read gave: the items that decoded, in their order, and the ones that did not.
 *
 * @since 0.1.0
 * @category models
 */
export interface Read<A> {
  readonly items: ReadonlyArray<A>
  /** the index of each of `items` in the list as sent (it differs from its index in `items` after an unreadable one) */
  readonly indices: ReadonlyArray<number>
  readonly unreadable: ReadonlyArray<Unreadable>
}

const standard = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * The first issue of a decoding failure, as a path (inside the value) and a message.
 *
 * @since 0.1.0
 * @category getters
 */
export const firstIssue = (
  issue: SchemaIssue.Issue
): { readonly path: ReadonlyArray<PropertyKey>; readonly message: string } => {
  // a failure has at least one issue, and effect's formatter writes each path as property keys (the path segments
  // objects that the Standard Schema type also allows never come from it)
  const first = standard(issue).issues[0]!
  return { path: first.path as ReadonlyArray<PropertyKey>, message: first.message }
}

/**
 * A reader of lists of `item`: `decode(Plan, { prefix: ["subscription_plans"] })(page.subscription_plans)`. The item
 * decoder is built once; the reader never throws. A list whose items all decode (the common case) is read in one
 * decoder call, as `Schema.Array(item)` reads it; only a list with an unreadable item is read again, item by item.
 *
 * @example
 * ```ts
 * import { ItemList } from "@payrules/lenient"
 * import { Schema } from "effect"
 *
 * const read = ItemList.decode(Schema.Struct({ id: Schema.String }), { prefix: ["items"] })
 * const { items, unreadable } = read([{ id: "a" }, { id: 2 }, { id: "c" }])
 * console.log(items.length, unreadable[0]?.index, unreadable[0]?.path) // 2 1 [ 'items', 1, 'id' ]
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode = <A>(
  item: Schema.Decoder<A>,
  options?: { readonly prefix?: ReadonlyArray<PropertyKey> }
): ((list: ReadonlyArray<unknown>) => Read<A>) => {
  const decodeItem = Schema.decodeUnknownResult(item)
  // the common case first: every item reads, and one decoder call over the whole list is cheaper than one per item
  const decodeAll = Schema.decodeUnknownResult(Schema.Array(item))
  const prefix = options?.prefix ?? []
  return (list) => {
    const all = decodeAll(list)
    if (Result.isSuccess(all))
      return { items: all.success, indices: all.success.map((_, index) => index), unreadable: [] }
    const items: Array<A> = []
    const indices: Array<number> = []
    const unreadable: Array<Unreadable> = []
    for (let index = 0; index < list.length; index++) {
      const raw = list[index]
      const result = decodeItem(raw)
      if (Result.isSuccess(result)) {
        items.push(result.success)
        indices.push(index)
      } else {
        const { message, path } = firstIssue(result.failure.issue)
        unreadable.push({ index, path: [...prefix, index, ...path], message, raw })
      }
    }
    return { items, indices, unreadable }
  }
}

/**
 * The finding of an item that did not decode, as the readers of payrules report it beside what they read: a warning
 * (the other items are usable), with the item's index, the path of what broke and the item as sent.
 *
 * @since 0.1.0
 * @category models
 */
export interface Finding {
  readonly severity: "warning"
  readonly rule: "UnreadableItem"
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
  readonly index: number
  readonly raw: unknown
}

/**
 * The {@link Finding} of an {@link Unreadable} item, with the reader's own message.
 *
 * @since 0.1.0
 * @category constructors
 */
export const finding = (unreadable: Unreadable, message: string): Finding => ({
  severity: "warning",
  rule: "UnreadableItem",
  path: unreadable.path,
  message,
  index: unreadable.index,
  raw: unreadable.raw
})
