#!/bin/sh
# Install the Debian packages issuewatt needs, only those that are missing.
# Libraries are looked up with pkg-config, tools with command -v; apt-get runs
# only when something is absent, so on a ready machine this costs milliseconds.
set -e
need=""
lib() { pkg-config --exists "$1" 2>/dev/null || need="$need $2"; }
tool() { command -v "$1" >/dev/null 2>&1 || need="$need $2"; }

command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
tool cc gcc
tool make make
lib gsl libgsl-dev
lib libxml-2.0 libxml2-dev
lib hdf5 libhdf5-dev
lib cunit libcunit1-dev
lib liblzma liblzma-dev
lib zlib zlib1g-dev
tool xmllint libxml2-utils
tool h5dump hdf5-tools
tool help2man help2man
tool gnuplot gnuplot-nox
tool yosys yosys
if [ "${MPI:-0}" = 1 ] || [ "${IW_WANT_MPI:-0}" = 1 ]; then
	tool mpicc libopenmpi-dev
	tool mpirun openmpi-bin
fi
if [ "${SAN:-0}" = 1 ] || [ "${IW_WANT_FUZZ:-0}" = 1 ]; then
	tool clang clang
fi
# make fuzz: libFuzzer's runtime is only a Recommends of clang, so name it.
if [ "${IW_WANT_FUZZ:-0}" = 1 ]; then
	if ! command -v clang >/dev/null 2>&1 || [ ! -f "$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a)" ]; then
		need="$need libclang-rt-dev"
	fi
fi
# CI's memory check of the default run.
if [ "${IW_WANT_VALGRIND:-0}" = 1 ]; then
	tool valgrind valgrind
fi

[ -z "$need" ] && exit 0
echo "deps: installing the missing Debian packages:$need" >&2
if [ "$(id -u)" != 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
# An old or absent package list makes apt-get fail to find new names: refresh it once.
$SUDO apt-get update -qq >&2
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $need >&2
