#!/bin/sh
# Training job of the profile-guided build (Makefile, PGO=1): runs the
# instrumented program where a user's time goes, so the compiler learns which
# branches and calls of the simulator are hot: every scheme on the built-in set
# at scale 0.2 under GTO and at 0.03 under LRR and SRR, with seed 7 (the
# benchmarks measure seed 1 at scale 1), every scheme on the real traces, and
# trace-info on plain and compressed text.  One simulation at a time: the
# profile counters are not atomic.  Output is discarded; a failure stops the
# build, as it would mean the instrumented program is broken.  About 5 s.
# usage: pgo-train.sh PROGRAM
set -e
bin=$1
[ -x "$bin" ] || { echo "pgo-train.sh: $bin: no such program" >&2; exit 1; }
run() { "$bin" run -q -j 1 --format csv "$@" > /dev/null; }
run --scheme all --workload builtin --scale 0.2 --seed 7
for pol in lrr srr; do
	run --scheme all --workload builtin --scale 0.03 --seed 7 --set core.policy=$pol
done
run --scheme all --workload tests/data/traces/matrixmul-sm61
run --scheme all --workload tests/data/traces/vectoradd-sm61-xz
"$bin" trace-info tests/data/traces/matrixmul-sm61 > /dev/null
"$bin" trace-info tests/data/traces/vectoradd-sm61-gz > /dev/null
