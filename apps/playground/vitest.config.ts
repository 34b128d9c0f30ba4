import { mergeConfig } from "vitest/config"
import shared from "../../tooling/vitest/config.ts"

// the browser test starts one Chromium for its file and builds the site first when it is missing or stale
export default mergeConfig(shared, {})
