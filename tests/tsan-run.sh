#!/bin/sh
# The simulator on several threads at once under ThreadSanitizer: a run whose
# (workload, scheme) pairs go 4 at a time (built-in kernels, plain, xz and
# hand-made traces) and a sweep on 4 worker threads that shares baselines.
# Any report of a data race fails.
#   usage: tests/tsan-run.sh BUILD_DIR   (built with: make SAN=thread)
set -eu
bin=$(cd "${1:-build-tsan}" && pwd)/issuewatt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 report_signal_unsafe=0"
"$bin" run -q -j 4 --scale 0.02 -s all -w vecadd -w reduce -w tests/data/traces/matrixmul-sm61 \
	-w tests/data/traces/vectoradd-sm61-xz -w tests/data/traces/hand/v5 -o "$tmp/run.h5" >/dev/null 2>"$tmp/run.err" ||
	{ cat "$tmp/run.err"; exit 1; }
cat >"$tmp/s.xml" <<'XML'
<?xml version="1.0"?>
<sweep name="tsan">
  <config>vortex</config>
  <workload>vecadd</workload>
  <workload>reduce</workload>
  <scheme>all</scheme>
  <set key="run.workload_scale" value="0.02"/>
  <axis key="loog.cus" values="6 8"/>
  <axis key="sm.max_warps" values="8 16"/>
</sweep>
XML
"$bin" sweep "$tmp/s.xml" -o "$tmp/s.h5" -j 4 -q >/dev/null 2>"$tmp/sweep.err" || { cat "$tmp/sweep.err"; exit 1; }
echo "tsan-run: no data race in parallel runs and sweeps"
