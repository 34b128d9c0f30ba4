/**
 * The mutation score each package must keep (issue 33): 85% for the domain packages (and lenient, their building block), 75% for the transport, the
 * sandbox and the stores. The command line (apps/demo) has no threshold yet and is not run.
 */
export const thresholds = {
  iso8601: 85,
  money: 85,
  lenient: 85,
  accounts: 85,
  "open-banking": 85,
  subscriptions: 85,
  exchange: 85,
  transfers: 85,
  transport: 75,
  sandbox: 75,
  stores: 75
}

/** the threshold of a package (by its directory name under packages/) */
export const thresholdOf = (name) => {
  const t = thresholds[name]
  if (t === undefined) throw new Error(`no mutation threshold for ${name}: add it to tooling/mutation/thresholds.mjs`)
  return t
}
