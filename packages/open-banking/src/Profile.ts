/**
 * The two profiles of the Open Banking international payment (D8): `revolut`, the specification as Revolut publishes
 * it, and `obie-3.1.11`, the Open Banking (UK) Read/Write API 3.1.11 standard it derives from.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * @since 0.1.0
 * @category models
 */
export type Profile = "revolut" | "obie-3.1.11"

/**
 * Both profiles, `revolut` first.
 *
 * @since 0.1.0
 * @category constants
 */
export const profiles: ReadonlyArray<Profile> = ["revolut", "obie-3.1.11"]

/**
 * A profile name.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Profile: Schema.Codec<Profile> = Schema.Literals(["revolut", "obie-3.1.11"]).annotate({
  identifier: "Profile",
  description: "an Open Banking profile: revolut or obie-3.1.11"
})

/**
 * @since 0.1.0
 * @category predicates
 */
export const isProfile = (u: unknown): u is Profile => u === "revolut" || u === "obie-3.1.11"
