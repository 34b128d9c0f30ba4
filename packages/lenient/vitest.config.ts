import { mergeConfig } from "vitest/config"
import shared from "../../tooling/vitest/config.ts"

export default mergeConfig(shared, {})
