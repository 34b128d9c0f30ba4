#!/usr/bin/env bash
# The command line as a user installs it: packs @payrules/cli and the @payrules packages it depends on (not on the
# registry yet) with `pnpm pack` (which turns workspace: and catalog: ranges into versions), installs the tarballs into
# an empty directory with npm (third-party packages come from the npm registry or npm's cache), and runs the
# installed command there on the workspace's Node: `npx payrules --help` (at most 100 columns wide), `--version` (the
# version of package.json), and `simulate --plan <file>`, each to exit 0.
#
#   pnpm --filter @payrules/cli pack-smoke        (or: bash apps/demo/scripts/pack-smoke.sh)
#
# Set PAYRULES_PACK_SMOKE_KEEP=1 to keep the temporary directory.
set -euo pipefail

cli_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
repo_dir="$(cd "$cli_dir/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/payrules-pack-smoke.XXXXXX")"
if [[ "${PAYRULES_PACK_SMOKE_KEEP:-}" != "1" ]]; then trap 'rm -rf "$work"' EXIT; fi
mkdir -p "$work/tarballs" "$work/app"

fail() {
  echo "pack-smoke: $*" >&2
  exit 1
}

# The build, npm, npx and the installed command run on the workspace's Node (24, the npm package `node`), as on a
# machine with Node >= 22.19, also when this script is started with the machine's older Node. Its binary itself, not
# the shim in node_modules/.bin, which sets NODE_PATH to the workspace's packages (where the installed command would
# find what its own install lacks). In a pnpm script PATH already leads to it (through that shim); else pnpm finds it.
if ! node_bin="$(node -p process.execPath 2>/dev/null)" || [[ "$node_bin" != "$repo_dir/node_modules/"* ]]; then
  node_bin="$(pnpm --dir "$repo_dir" exec node -p process.execPath)"
fi
export PATH="$(dirname "$node_bin"):$PATH"
unset NODE_PATH
node -e 'const [major, minor] = process.versions.node.split(".").map(Number)
if (major < 22 || (major === 22 && minor < 19)) { console.error(`pack-smoke: Node ${process.version} is older than 22.19`); process.exit(1) }'

# compiles the command line and, through the project references, every package it depends on
pnpm --dir "$cli_dir" run --silent build

# the command line and the workspace packages it needs at run time (its dependencies, not its devDependencies)
mapfile -t dirs < <(pnpm --dir "$cli_dir" --filter-prod "@payrules/cli..." list --depth -1 --json |
  node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
    for (const p of JSON.parse(s)) {
      if (p.private) { console.error(`pack-smoke: ${p.name} is private and cannot be installed from a tarball`); process.exit(1) }
      console.log(p.path)
    }
  })')
for dir in "${dirs[@]}"; do
  (cd "$dir" && pnpm pack --pack-destination "$work/tarballs" >/dev/null)
done
echo "packed ${#dirs[@]} packages: $(cd "$work/tarballs" && ls | tr '\n' ' ')"

cd "$work/app"
# run through pnpm, pnpm's own settings reach npm as npm_config_* variables that npm does not know: keep only those
# that say where packages come from
for name in $(compgen -e | grep '^npm_config_' || true); do
  case "$name" in
  npm_config_registry | npm_config_cache | npm_config_userconfig | npm_config_proxy | npm_config_https_proxy | npm_config_noproxy) ;;
  *) unset "$name" ;;
  esac
done
echo '{ "name": "payrules-pack-smoke", "version": "1.0.0", "private": true, "type": "module" }' >package.json
npm install --no-audit --no-fund --loglevel=error "$work"/tarballs/*.tgz >/dev/null
cp "$cli_dir/test/fixtures/pro-plan.json" plan.json

help="$(npx --no-install payrules --help)" || fail "npx payrules --help exited with $?"
[[ "$(head -n 1 <<<"$help")" == "payrules" ]] || fail "npx payrules --help printed: $(head -n 3 <<<"$help")"
grep -q -- "- simulate" <<<"$help" || fail "npx payrules --help does not list simulate"
[[ "$help" != *$'\e['* ]] || fail "npx payrules --help printed colour into a pipe"
widest="$(awk '{ print length }' <<<"$help" | sort -n | tail -1)"
((widest <= 100)) || fail "npx payrules --help has a line of $widest characters (at most 100)"

expected_version="$(node -p 'require(process.argv[1]).version' "$cli_dir/package.json")"
version="$(npx --no-install payrules --version | head -n 1)"
[[ "$version" == "$expected_version" ]] || fail "npx payrules --version printed $version, package.json says $expected_version"

out="$(npx --no-install payrules simulate --plan plan.json --start 2024-01-17T09:00:00Z --zone Europe/London --months 12)" ||
  fail "npx payrules simulate exited with $?"
[[ "$(head -n 1 <<<"$out")" == "Pro (pln_pro), Europe/London" ]] || fail "simulate printed: $(head -n 3 <<<"$out")"
[[ "$(tail -n 1 <<<"$out")" == "12 cycle(s) billed: £104.88" ]] || fail "simulate ended with: $(tail -n 1 <<<"$out")"

echo "pack-smoke: ok on Node $(node --version) (npx payrules --help, --version $version and simulate --plan plan.json in $work/app)"
