#!/bin/sh
# Training job of the profile-guided build (Makefile, PGO=1): runs the
# instrumented program where a user's time goes, so the compiler learns which
# branches and calls of the simulator are hot: every scheme on the built-in set
# at scale 0.2 under GTO and at 0.03 under LRR and SRR, with seed 7 (the
# benchmarks measure seed 1 at scale 1), every scheme on the real traces, and
# the trace reader on plain and compressed text.  One simulation at a time: the
# profile counters are not atomic.  Output is discarded; a failure stops the
# build, as it would mean the instrumented program is broken.  About 7 s.
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
# The trace reader at the volume it meets in use: the real matrixmul thread
# block repeated 120 times (22 MB, 530 k warp-instructions, as the
# benchmark builds its own), read warp after warp (trace-info) and by a
# simulation; the small fixtures alone leave it cold, and compiled for size.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'kernel-1.traceg\n' > "$tmp/kernelslist.g"
awk -v n=120 '
	/^-grid dim/ { print "-grid dim = (" n ",1,1)"; next }
	/^#BEGIN_TB/ { inb = 1; next }
	inb && /^thread block/ { body = 1; next }
	inb && /^#END_TB/ { inb = 0; body = 0; next }
	body { tb[nt++] = $0; next }
	!inb { print }
	END { for (c = 0; c < n; c++) {
		printf "#BEGIN_TB\n\nthread block = %d,0,0\n", c
		for (i = 0; i < nt; i++) print tb[i]
		print "#END_TB"; print "" } }
' tests/data/traces/matrixmul-sm61/kernel-1.traceg > "$tmp/kernel-1.traceg"
"$bin" trace-info "$tmp" > /dev/null
run --scheme inorder --workload "$tmp"
"$bin" trace-info tests/data/traces/vectoradd-sm61-gz > /dev/null
