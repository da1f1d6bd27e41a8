/* tests/test_memsys_entry.c -- the memory model's constant-stride path: an
 * address entry marked strided (the trace's address mode 1) must give the
 * answers of the same lanes read one by one. */
#include "memsys.h"
#include "testutil.h"

#include <string.h>

/* Lanes base + i * stride, marked strided or not. */
static void lanes(struct iw_mem_addrs *ma, uint64_t base, int32_t stride, uint32_t n, int strided)
{
	memset(ma, 0, sizeof *ma);
	ma->n = (uint8_t)n;
	ma->strided = (uint8_t)strided;
	ma->stride = stride;
	for (uint32_t i = 0; i < n; i++)
		ma->addr[i] = base + (uint64_t)i * (uint64_t)(int64_t)stride;
}

/* Two memory systems fed the same accesses, one through the stride, one
 * lane by lane: every latency and activity count agrees. */
static void stride_gives_the_lane_answers(void)
{
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_memsys *a, *b;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_memsys_new(&c, &a, &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_memsys_new(&c, &b, &e), 0);
	uint64_t acta[IW_A_COUNT] = {0}, actb[IW_A_COUNT] = {0};
	static const int32_t strides[] = {0, 1, 2, 4, 8, 12, 16, 64, 128, 132, 4096, -4, -8, -128, 1 << 20};
	static const uint16_t widths[] = {1, 2, 4, 8, 16};
	static const uint8_t spaces[] = {IW_SPACE_SHARED, IW_SPACE_GLOBAL, IW_SPACE_LOCAL};
	struct iw_rng r;
	iw_rng_seed(&r, 11);
	int mismatches = 0;
	for (int i = 0; i < 4000; i++) {
		struct iw_inst in;
		memset(&in, 0, sizeof in);
		in.unit = IW_UNIT_MEM;
		in.space = spaces[iw_rng_below(&r, 3)];
		in.flags = (uint16_t)(iw_rng_below(&r, 4) ? IW_F_LOAD : IW_F_STORE);
		in.mem_width = widths[iw_rng_below(&r, 5)];
		uint32_t n = 1 + (uint32_t)iw_rng_below(&r, 32);
		in.mask = n == 32 ? 0xffffffffu : (1u << n) - 1;
		/* bases near 2^64 too, where lanes wrap */
		uint64_t base = iw_rng_below(&r, 8) ? iw_rng_next(&r) % (1u << 22) : (uint64_t)0 - iw_rng_below(&r, 512);
		int32_t stride = strides[iw_rng_below(&r, sizeof strides / sizeof strides[0])];
		struct iw_mem_addrs sa, la;
		lanes(&sa, base, stride, n, 1);
		lanes(&la, base, stride, n, 0);
		uint32_t sm = (uint32_t)iw_rng_below(&r, 4);
		uint64_t now = (uint64_t)i * 3;
		mismatches += iw_mem_access_entry(a, sm, &in, &sa, now, acta) != iw_mem_access(b, sm, &in, &la, now, actb);
	}
	CU_ASSERT_EQUAL(mismatches, 0);
	CU_ASSERT_EQUAL(memcmp(acta, actb, sizeof acta), 0);
	CU_ASSERT(acta[IW_A_SHMEM_CONFLICT] > 0 && acta[IW_A_L1_HIT] > 0 && acta[IW_A_L2_MISS] > 0);
	iw_memsys_free(a);
	iw_memsys_free(b);
}

/* An entry not marked strided is read lane by lane, whatever its stride
 * field says (entries a fetch filled without knowing the field). */
static void unmarked_entry_reads_every_lane(void)
{
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_memsys *m;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_memsys_new(&c, &m, &e), 0);
	uint64_t act[IW_A_COUNT] = {0};
	struct iw_inst in;
	memset(&in, 0, sizeof in);
	in.unit = IW_UNIT_MEM;
	in.space = IW_SPACE_SHARED;
	in.flags = IW_F_LOAD;
	in.mem_width = 4;
	in.mask = 0xffffffffu;
	struct iw_mem_addrs ma;
	lanes(&ma, 0, 128, 32, 0); /* all lanes on bank 0: 32-way */
	ma.stride = 4;             /* stale, not marked */
	CU_ASSERT_EQUAL(iw_mem_access_entry(m, 0, &in, &ma, 100, act), (uint32_t)(c.shmem_latency + 31));
	iw_memsys_free(m);
}

/* The trace reader marks address mode 1 lines, with their stride. */
static void trace_marks_mode1_lines(void)
{
	struct iw_workload *w = NULL;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_trace_open(tu_path("tests/data/traces/matrixmul-sm61"), &w, &e), 0);
	struct iw_kernel_info ki;
	struct iw_cta cta;
	uint64_t marked = 0, bad = 0;
	CU_ASSERT_EQUAL_FATAL(w->ops->next_kernel(w, &ki, &e), 1);
	while (w->ops->next_cta(w, &cta, &e) == 1) {
		for (uint32_t i = 0; i < cta.warps; i++) {
			struct iw_inst in;
			struct iw_mem_addrs ma;
			while (w->ops->fetch(w, &cta, i, &in, &ma, &e) == 1) {
				if (!ma.n || !ma.strided)
					continue;
				marked++;
				for (uint32_t l = 0; l < ma.n; l++)
					bad += ma.addr[l] != ma.addr[0] + (uint64_t)l * (uint64_t)(int64_t)ma.stride;
			}
		}
		w->ops->release_cta(w, &cta);
	}
	iw_workload_close(w);
	CU_ASSERT_EQUAL(marked, 1440); /* every memory line of the fixture is mode 1 */
	CU_ASSERT_EQUAL(bad, 0);
}

void suite_memsys_entry(void)
{
	TU_SUITE("memsys_entry", {"stride_gives_the_lane_answers", stride_gives_the_lane_answers},
		 {"unmarked_entry_reads_every_lane", unmarked_entry_reads_every_lane},
		 {"trace_marks_mode1_lines", trace_marks_mode1_lines});
}
