import { describe, expect, it } from "@effect/vitest"
import { Profile } from "@payrules/open-banking"
import { schemaLaws } from "@payrules/vitest"

describe("Profile", () => {
  it("two profiles, revolut first", () => {
    expect(Profile.profiles).toEqual(["revolut", "obie-3.1.11"])
    for (const p of Profile.profiles) expect(Profile.isProfile(p)).toBe(true)
    for (const u of ["obie", "Revolut", "obie-3.1.10", "", null, 1]) expect(Profile.isProfile(u)).toBe(false)
  })

  schemaLaws("Profile.Profile", Profile.Profile)
})
