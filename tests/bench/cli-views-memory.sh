#!/usr/bin/env bash
# Peak RSS of the CLI's pod views on one CloneSet of N ready pods, for one or more builds:
#   tests/bench/cli-views-memory.sh BIN_DIR KUBECTL_KRUISE [KUBECTL_KRUISE...]
# BIN_DIR: the control plane's binaries (tests/testenv/build.sh prints it). The first binary
# runs the plane and the controller; each binary then runs `rollout status --watch=false`
# and `get --tree` three times under /usr/bin/time (max RSS in KiB, seconds). N=1000 unless
# set. Not a test: it prints figures.
set -u
bin_dir=$1; shift
first=$1
n=${N:-1000}
run=$(mktemp -d)
"$first" testenv up --bin-dir "$bin_dir" --run-dir "$run/plane" --nodes 20 > "$run/plane.env" || exit 1
source "$run/plane.env"; export KUBECONFIG=$KRUISE_TESTENV_KUBECONFIG
"$first" install > /dev/null
"$first" run --qps 200 --burst 400 > "$run/run.log" 2>&1 &
controller=$!
kubectl create ns views > /dev/null
kubectl apply -f - > /dev/null <<YAML
apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata: {name: web, namespace: views}
spec:
  replicas: $n
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: registry.local/web:1}]}
  updateStrategy: {type: InPlaceIfPossible, maxUnavailable: 10%}
YAML
"$first" rollout status cloneset/web -n views --timeout 15m > /dev/null || echo "not ready in 15m"
echo "pods: $(kubectl get pods -n views --no-headers | wc -l)"
for exe in "$@"; do
  for _ in 1 2 3; do
    status=$( { /usr/bin/time -f "%M KiB %e s" "$exe" rollout status cloneset/web -n views --watch=false > /dev/null; } 2>&1 | tail -1)
    tree=$( { /usr/bin/time -f "%M KiB %e s" "$exe" get cloneset/web -n views --tree > /dev/null; } 2>&1 | tail -1)
    echo "$exe  rollout status: $status  get --tree: $tree"
  done
done
kill -INT $controller; wait $controller
"$first" testenv down --run-dir "$run/plane" > /dev/null
rm -rf "$run"
