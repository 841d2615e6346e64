#!/usr/bin/env bash
# Builds the local control plane (etcd, kube-apiserver, kube-controller-manager,
# kube-scheduler) from the Go modules pinned in tests/testenv/k8s/go.mod.
#
# The binaries land in ~/.cache/kubectl-kruise/testenv/<key>/bin, where <key> hashes
# go.sum and the Go version; a hit rebuilds nothing. Prints the bin directory last.
# Concurrent callers wait on a lock, so parallel test binaries build once.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mod="$here/k8s"
k8s_version=$(awk '$1=="require" && $2=="k8s.io/kubernetes" {print $3}' "$mod/go.mod")
[ -n "$k8s_version" ] || { echo "build.sh: no k8s.io/kubernetes version in $mod/go.mod" >&2; exit 1; }

go_version=$(go env GOVERSION)
key=$( { cat "$mod/go.sum" "$mod/go.mod"; echo "$go_version"; } | sha256sum | cut -c1-16)
root="${KRUISE_TESTENV_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-kruise/testenv}"
out="$root/$key"
mkdir -p "$root"

exec 9>"$root/.build.lock"
flock 9

want=(etcd kube-apiserver kube-controller-manager kube-scheduler)
complete() { for b in "${want[@]}"; do [ -x "$out/bin/$b" ] || return 1; done; }

if complete; then
  echo "testenv: cached control plane $k8s_version in $out/bin" >&2
  echo "$out/bin"
  exit 0
fi

echo "testenv: building Kubernetes $k8s_version + etcd with $go_version (cold: ~20 min on 2 cores)" >&2
start=$(date +%s)
tmp="$out.tmp.$$"
rm -rf "$tmp"
mkdir -p "$tmp/bin"
trap 'rm -rf "$tmp"' EXIT

minor=${k8s_version#v1.}; minor=${minor%%.*}
ldflags="-s -w"
for kv in "gitVersion=$k8s_version" "gitMajor=1" "gitMinor=$minor" "gitTreeState=clean"; do
  ldflags="$ldflags -X k8s.io/component-base/version.$kv"
done

cd "$mod"
export CGO_ENABLED=0 GOFLAGS="-buildvcs=false -mod=readonly" GOTOOLCHAIN=local
go build -trimpath -ldflags "$ldflags" -o "$tmp/bin/" \
  k8s.io/kubernetes/cmd/kube-apiserver \
  k8s.io/kubernetes/cmd/kube-controller-manager \
  k8s.io/kubernetes/cmd/kube-scheduler
go build -trimpath -ldflags "-s -w" -o "$tmp/bin/etcd" go.etcd.io/etcd/server/v3

rm -rf "$out"
mv "$tmp" "$out"
trap - EXIT
echo "testenv: built in $(( $(date +%s) - start ))s" >&2
echo "$out/bin"
