# The result table of one kind from ginkgo's JSON report (see README.md): every spec the
# kind's label selects, its result, seconds, and the skip reason or the first failure line.
# Arguments: --arg kind KIND, --slurpfile skips FILE (a JSON list of [regex, reason]).
def text: (.ContainerHierarchyTexts + [.LeafNodeText]) | join(" ");
def reason($t): [$skips[0][] | select(. as $s | $t | test($s[0])) | .[1]] | first // "";
[.[].SpecReports[]? | select(.LeafNodeType == "It")
  | select(((.ContainerHierarchyLabels // []) | flatten) + (.LeafNodeLabels // []) | index($kind))] as $specs
| ($specs | map(select(.State == "passed")) | length) as $passed
| ($specs | map(select(.State != "passed" and .State != "skipped" and .State != "pending")) | length) as $failing
| ($specs | map(select(.State == "skipped" or .State == "pending")) | length) as $skipped
| "## \($kind): \($passed) passed, \($failing) failed, \($skipped) skipped\n",
  "| spec | where | result | seconds | reason |", "|---|---|---|---|---|",
  ($specs[] | text as $t
    | (.LeafNodeLocation.FileName // "" | split("/") | .[-2:] | join("/")) as $file
    | "| \($t) | \($file):\(.LeafNodeLocation.LineNumber // 0) | \(.State) | \((.RunTime // 0) / 1e9 | floor) | \(if .State == "skipped" then reason($t) elif .State == "passed" then "" else ((.Failure.Location.LineNumber // 0 | "line \(.): ") + (.Failure.Message // "" | gsub("\\s+"; " ") | .[0:200] | gsub("\\|"; "/"))) end) |"),
  ""
