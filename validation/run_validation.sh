#!/usr/bin/env bash
# Cross-checks the time steppers against the event-driven engine (issue 11: the cup-and-ball, the
# clutch, the two-state relay, the diode bridge) and regenerates what validation/REPORT.md shows:
#   validation/crosscheck/NAME.txt        the table `nsdae crosscheck` prints
#   validation/crosscheck/NAME.csv, .json the same as CSV and JSON
#   validation/crosscheck/NAME.png        log-log errors against h (slope-1 guide: implicit Euler is O(h))
#   validation/crosscheck/NAME_overlay.png  both trajectories, one panel per state
#   validation/crosscheck/NAME.log        the command line and its standard error
#   validation/REPORT.md                  per example: engines, fitted orders, event counts, figures
# A model that fails is reported in REPORT.md with its message, and the others still run.
# Usage: validation/run_validation.sh [NSDAE]   (default build/nsdae; needs gnuplot and python3)
set -u
cd "$(dirname "$0")/.."
nsdae=${1:-build/nsdae}
out=validation/crosscheck
mkdir -p "$out"
if [[ ! -x $nsdae ]]; then
    echo "run_validation.sh: $nsdae is not an executable (build first: cmake --build build)" >&2
    exit 2
fi

# name | model | step counts | extra options | why these step counts
# Step counts: five or more, over a factor 16 at least. The diode bridge's are not nested (a ratio
# of about 1.42): on nested grids the first grid time after an event repeats, and the event-time
# error would stay flat instead of showing its bound |dt| < h.
models=(
    "cup_and_ball|examples/cup_and_ball.nsm|200,400,800,1600,3200,6400||Moreau-Jean (the model's experiment), T = 2"
    "clutch|examples/clutch_exogenous.nsm|100,200,400,800,1600,3200||exogenous engagement at t_e = 1, T = 3"
    "relay|examples/relay_two_states.nsm|101,201,401,801,1601,3201||odd N: the event t = 0.5 is never on the grid"
    "diode_bridge|examples/diode_bridge.nsm|4000,5700,8100,11500,16300,23100,32800,46500,66000||T = 5e-3, 16 switches"
)

failed=0
: >"$out/status.txt"
for entry in "${models[@]}"; do
    IFS='|' read -r name model steps extra note <<<"$entry"
    args=("$model" --steps "$steps" --plot "$out/$name.png" --csv "$out/$name.csv" --json "$out/$name.json")
    [[ -n $extra ]] && read -r -a more <<<"$extra" && args+=("${more[@]}")
    echo "== $name: $nsdae crosscheck ${args[*]}"
    rm -f "$out/$name".{txt,csv,json,png,log} "$out/${name}_overlay.png"
    echo "\$ nsdae crosscheck ${args[*]}" >"$out/$name.log"
    if nice "$nsdae" crosscheck "${args[@]}" >"$out/$name.txt" 2>>"$out/$name.log"; then
        echo "$name|ok|$note|${args[*]}" >>"$out/status.txt"
        cat "$out/$name.txt"
    else
        rc=$?
        failed=$((failed + 1))
        echo "$name|failed (exit status $rc)|$note|${args[*]}" >>"$out/status.txt"
        echo "run_validation.sh: $name FAILED (exit status $rc):" >&2
        tail -n 5 "$out/$name.log" >&2
    fi
done

python3 validation/write_report.py "$out" validation/REPORT.md "$nsdae" || exit 1
echo "validation/REPORT.md written; $failed model(s) failed"
exit $((failed > 0))
