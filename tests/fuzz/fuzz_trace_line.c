/* tests/fuzz/fuzz_trace_line.c -- instruction lines of one warp: the input
 * is placed under a valid kernel header (tracer version 4, sm_70) and a warp
 * whose `insts` equals the number of input lines, so the fuzzer spends its
 * time in the instruction decoder rather than in the structure checks. */
#include "fuzz.h"
#include "trace_drive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char header[] = "-kernel name = fuzz\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
			     "-shmem = 0\n-nregs = 16\n-binary version = 70\n-cuda stream id = 0\n"
			     "-shmem base_addr = 0x00007f0050000000\n-local mem base_addr = 0x00007f0040000000\n"
			     "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n\n"
			     "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
			     "mem_width [adrrescompress?] [mem_addresses]\n\n"
			     "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\n";

int iw_fuzz_trace_line(const uint8_t *data, size_t n)
{
	if (n > 65536)
		return 0;
	/* insts counts the lines that hold something (blank lines are skipped). */
	size_t lines = 0;
	int full = 0;
	for (size_t i = 0; i < n; i++) {
		if (data[i] == '\n') {
			lines += full;
			full = 0;
		} else if (data[i] != ' ' && data[i] != '\t') {
			full = 1;
		}
	}
	lines += full;
	char *buf = malloc(sizeof header + 64 + n + 32);
	if (!buf)
		return 0;
	size_t len = (size_t)sprintf(buf, "%sinsts = %zu\n", header, lines);
	memcpy(buf + len, data, n);
	len += n;
	if (n && data[n - 1] != '\n')
		buf[len++] = '\n';
	len += (size_t)sprintf(buf + len, "\n#END_TB\n");
	const char *path = iw_fuzz_file("kernel-1.traceg", buf, len);
	free(buf);
	return path ? iw_fuzz_assert_trace(path) : 0;
}
