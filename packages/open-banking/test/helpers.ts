import { PaymentStatus, type Profile } from "@payrules/open-banking"
import { readFixture } from "@payrules/vitest"

export type Path = ReadonlyArray<string | number>

/** a fixture of test/fixtures, freshly parsed (each call returns a new object) */
export const fixture = (name: string): Record<string, unknown> => readFixture(import.meta.url, `fixtures/${name}.json`)

/** the full hand-written response of each profile */
export const full = (profile: Profile.Profile): Record<string, unknown> =>
  fixture(profile === "revolut" ? "revolut-international-payment" : "obie-international-payment")

export const profiles: ReadonlyArray<Profile.Profile> = ["revolut", "obie-3.1.11"]

export const statusesOf = (profile: Profile.Profile): ReadonlyArray<PaymentStatus.Status> =>
  PaymentStatus.statuses[profile]

const isRecord = (u: unknown): u is Record<string | number, unknown> => typeof u === "object" && u !== null

/** a copy of `value` with `path` set to `replacement`, creating objects on the way */
export const setIn = <A>(value: A, path: Path, replacement: unknown): A => {
  const root = structuredClone(value) as unknown
  let node = root as Record<string | number, unknown>
  path.forEach((key, i) => {
    if (i === path.length - 1) {
      node[key] = replacement
      return
    }
    if (!isRecord(node[key])) node[key] = typeof path[i + 1] === "number" ? [] : {}
    node = node[key] as Record<string | number, unknown>
  })
  return root as A
}

/** a copy of `value` without the last key of `path` */
export const deleteIn = <A>(value: A, path: Path): A => {
  const root = structuredClone(value) as unknown
  let node = root as Record<string | number, unknown>
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>
  delete node[path[path.length - 1]!]
  return root as A
}

/** the value at `path` */
export const getIn = (value: unknown, path: Path): unknown =>
  path.reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), value)
