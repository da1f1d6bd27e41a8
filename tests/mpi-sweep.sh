#!/bin/sh
# The same sweep under Open MPI (rank 0 deals points to 2 workers on loopback)
# and in one process must give the same results bit for bit, sharing the
# in-order baselines as well.
#   usage: tests/mpi-sweep.sh BUILD_DIR   (built with: make MPI=1 BUILD=BUILD_DIR)
set -eu
bin=$(cd "${1:-build-mpi}" && pwd)/issuewatt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/tiny.xml" <<'XML'
<?xml version="1.0"?>
<sweep name="mpi">
  <config>vortex</config>
  <workload>vecadd</workload>
  <workload>reduce</workload>
  <scheme>loog</scheme>
  <set key="run.workload_scale" value="0.02"/>
  <!-- an error on a coefficient: every row carries its sensitivity -->
  <set key="tech.energy.pipe.inst.std_error" value="10%"/>
  <axis key="sm.max_warps" values="8 16"/>
  <axis key="sm.warp_size" values="8 16"/>
  <axis key="loog.cus" values="6 8"/>
</sweep>
XML
# Open MPI refuses to start as root unless told it is intended (CI containers).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$bin" sweep "$tmp/tiny.xml" -o "$tmp/one.h5" -j 1 -q
mpirun --oversubscribe -np 3 "$bin" sweep "$tmp/tiny.xml" -o "$tmp/mpi.h5" -q >"$tmp/mpi.out"
cat "$tmp/mpi.out"
# the ranks share in-order baselines between points that differ only in loog.cus
grep -q "in-order baseline runs shared" "$tmp/mpi.out"
h5diff --exclude-attribute / "$tmp/one.h5" "$tmp/mpi.h5"
h5ls "$tmp/mpi.h5/runs/000001/model_sensitivity" | grep -q '{1, 8}'
# an MPI run stopped early resumes to the same file
mpirun --oversubscribe -np 3 "$bin" sweep "$tmp/tiny.xml" -o "$tmp/part.h5" --limit 5 -q || true
mpirun --oversubscribe -np 3 "$bin" sweep "$tmp/tiny.xml" -o "$tmp/part.h5" --resume -q
h5diff --exclude-attribute / "$tmp/one.h5" "$tmp/part.h5"
# a results file that cannot be written fails at once, and every rank exits
# (the workers are released, not left waiting for a first point)
if timeout 120 mpirun --oversubscribe -np 3 "$bin" sweep "$tmp/tiny.xml" -o "$tmp/no/such.h5" -q 2>"$tmp/bad.err"; then
  echo "mpi-sweep: a sweep into a missing folder succeeded" >&2; exit 1
fi
grep -q "cannot create output" "$tmp/bad.err"
# invalid input found at a point on a worker rank is exit 3, as in one
# process, and leaves no output (a CTA of 8 warps on an SM of 2)
sed -e 's/values="8 16"/values="8 2"/' -e '/warp_size\|loog.cus/d' "$tmp/tiny.xml" >"$tmp/bad.xml"
set +e
timeout 120 mpirun --oversubscribe -np 3 "$bin" sweep "$tmp/bad.xml" -o "$tmp/bad.h5" -q 2>"$tmp/bad.err"
rc=$?
set -e
if [ "$rc" != 3 ] || [ -e "$tmp/bad.h5" ]; then
  echo "mpi-sweep: invalid input at a point: expected exit 3 and no output, found exit $rc" >&2; cat "$tmp/bad.err" >&2; exit 1
fi
grep -q "needs 8 warps" "$tmp/bad.err"
echo "mpi-sweep: the MPI sweep equals the single-process sweep"
