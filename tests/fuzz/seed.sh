#!/bin/sh
# tests/fuzz/seed.sh TARGET DIR -- put the seed inputs of one fuzz target into
# DIR: the fixtures of its format (tests/data, the shipped presets and
# technology files), the hand-written seeds in tests/fuzz/seeds/TARGET and
# the regression inputs in tests/fuzz/regress/TARGET.  Run from the source tree.
set -e
t=$1
d=$2
mkdir -p "$d"
put() { for f in "$@"; do [ -f "$f" ] && cp "$f" "$d/seed-$(echo "$f" | tr '/' '_')"; done; return 0; }
R=tests/data/reports
T=tests/data/traces
case $t in
trace_kernel) put $T/*/kernel-*.traceg* $T/hand/*/kernel-*.traceg* ;;
trace_line)
	# The instruction lines of the first warp of each tracer-4 style fixture.
	for f in $T/hand/v4/kernel-1.traceg $T/hand/v3/kernel-1.traceg $T/vectoradd-sm61/kernel-1.traceg \
		$T/matrixmul-sm61/kernel-1.traceg; do
		awk '/^insts = /{on=1; next} /^warp = /{if (on) exit} on' "$f" | head -200 \
			>"$d/seed-lines-$(echo "$f" | tr '/' '_')"
	done ;;
kernelslist) put $T/*/kernelslist.g $T/hand/*/kernelslist.g ;;
config) put perf/presets/*.xml ;;
tech) put tech/*.xml ;;
calib_spec) ;;
vivado_util_flat) put $R/vivado*_util_flat_*.rpt ;;
vivado_util_hier) put $R/vivado*_util_hier_*.rpt ;;
vivado_power) put $R/vivado*_power_*.rpt ;;
dc_area) put $R/dc_*_area_*.rpt ;;
dc_power) put $R/dc_*_power_*.rpt ;;
yosys_stat) put $R/yosys_stat_*.txt ;;
opensta_power) put $R/opensta_power_*.txt ;;
sweep_spec) put examples/*.xml ;;
*) echo "seed.sh: unknown fuzz target '$t'" >&2; exit 2 ;;
esac
[ -d tests/fuzz/seeds/$t ] && put tests/fuzz/seeds/$t/*
[ -d tests/fuzz/regress/$t ] && put tests/fuzz/regress/$t/*
exit 0
