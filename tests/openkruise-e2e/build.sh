#!/usr/bin/env bash
# Builds OpenKruise's own e2e suite (test/e2e of github.com/openkruise/kruise at the release
# given as $1, default v1.9.0) into a Go test binary and prints its path last.
#
# The source comes from the Go module proxy (`go mod download`), never from a checkout here,
# and nothing of it is kept in this repository. The binary lands in
# ~/.cache/kubectl-kruise/openkruise-e2e/<release>-<go version>/kruise-e2e.test; a hit
# rebuilds nothing. Cold: several minutes on 2 cores.
set -euo pipefail

release=${1:-v1.9.0}
go_version=$(go env GOVERSION)
root="${KRUISE_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-kruise/openkruise-e2e}"
out="$root/$release-$go_version"
mkdir -p "$root"
exec 9>"$root/.build.lock"
flock 9

if [ -x "$out/kruise-e2e.test" ]; then
  echo "openkruise-e2e: cached suite $release in $out" >&2
  echo "$out/kruise-e2e.test"
  exit 0
fi

echo "openkruise-e2e: building OpenKruise $release test/e2e with $go_version" >&2
start=$(date +%s)
dir=$(GOFLAGS=-mod=mod go mod download -json "github.com/openkruise/kruise@$release" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
[ -d "$dir" ] || { echo "openkruise-e2e: go mod download gave no source directory for $release" >&2; exit 1; }
# The module cache is read-only; build from a writable copy.
src="$out.src.$$"
rm -rf "$src"
trap 'chmod -R u+w "$src" 2>/dev/null; rm -rf "$src"' EXIT
cp -r "$dir" "$src"
chmod -R u+w "$src"
mkdir -p "$out"
(cd "$src" && CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS="-buildvcs=false -mod=readonly" \
  go test -c -o "$out/kruise-e2e.test.tmp" ./test/e2e)
mv "$out/kruise-e2e.test.tmp" "$out/kruise-e2e.test"
echo "openkruise-e2e: built in $(( $(date +%s) - start ))s" >&2
echo "$out/kruise-e2e.test"
