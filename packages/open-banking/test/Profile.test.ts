import { describe, expect, it } from "@effect/vitest"
import { Profile } from "@payrules/open-banking"
import { schemaLaws } from "@payrules/vitest"
import { Schema } from "effect"

describe("Profile", () => {
  it("two profiles, revolut first", () => {
    expect(Profile.profiles).toEqual(["revolut", "obie-3.1.11"])
    for (const p of Profile.profiles) expect(Profile.isProfile(p)).toBe(true)
    for (const u of ["obie", "Revolut", "obie-3.1.10", "", null, 1]) expect(Profile.isProfile(u)).toBe(false)
  })

  it("its JSON Schema lists the profiles and says what they are", () => {
    expect(Schema.toJsonSchemaDocument(Profile.Profile)).toEqual({
      dialect: "draft-2020-12",
      schema: { $ref: "#/$defs/Profile" },
      definitions: {
        Profile: {
          type: "string",
          enum: ["revolut", "obie-3.1.11"],
          description: "an Open Banking profile: revolut or obie-3.1.11"
        }
      }
    })
  })

  schemaLaws("Profile.Profile", Profile.Profile)
})
