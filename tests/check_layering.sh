#!/usr/bin/env bash
# Layering check: every #include in src/<stage>/, lcp/, include/nsdae/ and validation/bench/ must
# follow the allowed graph of tests/stage_graph.txt. Prints file:line and the forbidden include for
# each violation and exits 1; exits 0 when there is none, 2 when the graph file is malformed.
# usage: tests/check_layering.sh [REPO_ROOT]   (default: the repository this script is in)
set -euo pipefail
root=${1:-"$(cd "$(dirname "$0")/.." && pwd)"}
cd "$root"
shopt -s nullglob
files=(src/*/*.[ch] lcp/*.[ch] include/nsdae/*.h validation/bench/*.c)
folders=$(cd src && ls -d */ | tr -d / | tr '\n' ' ')

awk -v folders="$folders" '
FNR == 1 && NR != 1 { graph_done = 1 }
# ---- the graph file
!graph_done {
    sub(/#.*/, "")
    if (NF == 0) next
    if ($1 == "owns") { for (i = 3; i <= NF; i++) owner[$i] = $2; next }
    if ($2 == "->")   { stage[$1] = 1; for (i = 3; i <= NF; i++) allowed[$1, $i] = 1; next }
    if ($2 == "sees") { for (i = 3; i <= NF; i++) sees[$1, $i] = 1; next }
    printf "%s:%d: cannot read this line\n", FILENAME, FNR > "/dev/stderr"; bad_graph = 1; exit 2
}
# ---- the stage of each checked file
FNR == 1 {
    split(FILENAME, part, "/")
    if (part[1] == "src") me = part[2]
    else if (part[1] == "lcp") me = "lcp"
    else if (part[1] == "validation") me = "bench"
    else me = owner["nsdae/" part[3]]
    if (me == "") { printf "%s: no stage owns this public header (add an owns line to tests/stage_graph.txt)\n", FILENAME; bad = 1 }
    else if (!(me in stage)) { printf "%s: stage %s has no line in tests/stage_graph.txt\n", FILENAME, me; bad = 1 }
}
/^[ \t]*#[ \t]*include[ \t]*[<"]/ {
    line = $0
    sub(/^[ \t]*#[ \t]*include[ \t]*/, "", line)
    quoted = substr(line, 1, 1) == "\""
    path = substr(line, 2); sub(/[>"].*/, "", path)
    # a public or foreign header: its owner by exact name, else by the longest owned prefix
    them = owner[path]
    if (them == "") for (o in owner) if (o ~ /\/$/ && index(path, o) == 1 && length(o) > length(best_o)) { best_o = o }
    if (them == "" && best_o != "") them = owner[best_o]
    best_o = ""
    if (them != "") {
        if (them != me && them != "common" && !allowed[me, them])
            report(them " (header " path ")")
        next
    }
    # an internal header "folder/file.h" of a src/ folder (a bare "file.h" is the file'"'"'s own folder)
    if (quoted && index(path, "/")) {
        f = path; sub(/\/.*/, "", f)
        if (f == "..") { report("a relative path (write \"folder/file.h\")"); next }
        if (index(" " folders " ", " " f " ") && f != me && !sees[me, f])
            report("internal header " path " of " f)
    }
}
function report(what) {
    printf "%s:%d: %s may not include %s: %s\n", FILENAME, FNR, me, what, $0
    bad = 1
}
END { if (bad_graph) exit 2; exit bad ? 1 : 0 }
' tests/stage_graph.txt "${files[@]}"
