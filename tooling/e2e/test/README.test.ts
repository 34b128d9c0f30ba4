import { testReadme } from "@payrules/vitest"

// the transport README's examples run against a sandbox, which transport itself cannot depend on
testReadme(import.meta.url, "../../../packages/transport/README.md")
