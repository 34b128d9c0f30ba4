/**
 * A sandbox in its own process, for the load benchmarks: the options come as JSON in the first argument, and the
 * process answers on IPC with its URL. Run with `--expose-gc`, so GET /__sandbox/stats reports the heap after a full
 * collection.
 */
import { Sandbox } from "@payrules/sandbox"

const options = JSON.parse(process.argv[2] ?? "{}") as Sandbox.Options
const sandbox = await Sandbox.start({ ...options, port: 0 })
process.on("message", (message) => {
  if (message === "stop") void sandbox.stop().then(() => process.exit(0))
})
process.send?.({ url: sandbox.url })
