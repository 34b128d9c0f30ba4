import { testReadme } from "@payrules/vitest"

testReadme(import.meta.url)
