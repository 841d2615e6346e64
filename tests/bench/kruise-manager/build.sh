#!/usr/bin/env bash
# Builds OpenKruise's kruise-manager from the Go module pinned in this directory's go.mod
# (the benchmark's B8 contender: `cargo bench --bench kruise -- --kruise-manager`).
#
# The binary lands in ~/.cache/kubectl-kruise/kruise-manager/<key>/bin, where <key> hashes
# go.mod, go.sum and the Go version; a hit rebuilds nothing. Its CRDs (crd/, from the
# module's config/crd/bases) and webhook manifests (webhook-manifests.yaml) are copied next
# to it. Prints the bin directory last. Concurrent
# callers wait on a lock.
set -euo pipefail

mod=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
version=$(awk '$1=="require" && $2=="github.com/openkruise/kruise" {print $3}' "$mod/go.mod")
[ -n "$version" ] || { echo "build.sh: no github.com/openkruise/kruise version in $mod/go.mod" >&2; exit 1; }

go_version=$(go env GOVERSION)
key=$( { cat "$mod/go.sum" "$mod/go.mod"; echo "$go_version"; } | sha256sum | cut -c1-16)
root="${KRUISE_TESTENV_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-kruise}/kruise-manager"
out="$root/$key"
mkdir -p "$root"

exec 9>"$root/.build.lock"
flock 9

if [ -x "$out/bin/kruise-manager" ] && [ -d "$out/bin/crd" ] && [ -f "$out/bin/webhook-manifests.yaml" ]; then
  echo "kruise-manager: cached $version in $out/bin" >&2
  echo "$out/bin"
  exit 0
fi

echo "kruise-manager: building OpenKruise $version with $go_version (cold: ~10 min on 2 cores)" >&2
start=$(date +%s)
tmp="$out.tmp.$$"
rm -rf "$tmp"
mkdir -p "$tmp/bin/crd"
trap 'rm -rf "$tmp"' EXIT

cd "$mod"
export CGO_ENABLED=0 GOFLAGS="-buildvcs=false -mod=readonly" GOTOOLCHAIN=local
go build -trimpath -ldflags "-s -w" -o "$tmp/bin/kruise-manager" github.com/openkruise/kruise
src=$(go list -m -f '{{.Dir}}' github.com/openkruise/kruise)
cp "$src"/config/crd/bases/*.yaml "$tmp/bin/crd/"
cp "$src"/config/webhook/manifests.yaml "$tmp/bin/webhook-manifests.yaml"
chmod -R u+w "$tmp/bin"

rm -rf "$out"
mv "$tmp" "$out"
trap - EXIT
echo "kruise-manager: built in $(( $(date +%s) - start ))s" >&2
echo "$out/bin"
