/* tests/test_memsys.c -- the memory model (SCHEMES.md section 1). */
#include "memsys.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

static void lanes(struct iw_mem_addrs *ma, uint64_t base, int64_t stride, uint32_t n)
{
	ma->n = (uint8_t)n;
	for (uint32_t i = 0; i < n; i++)
		ma->addr[i] = base + (uint64_t)((int64_t)i * stride);
}

static struct iw_inst mem_inst(int space, unsigned flags, uint16_t width)
{
	struct iw_inst in;
	memset(&in, 0, sizeof in);
	in.unit = IW_UNIT_MEM;
	in.space = (uint8_t)space;
	in.flags = (uint16_t)flags;
	in.mem_width = width;
	in.mask = 0xffffffffu;
	in.mem_level = 1;
	return in;
}

static void coalescing(void)
{
	struct iw_mem_addrs ma;
	uint64_t sec[128];
	lanes(&ma, 0x10000, 4, 32); /* 128 contiguous bytes, aligned */
	CU_ASSERT_EQUAL(iw_coalesce(&ma, 4, sec, 128), 4);
	CU_ASSERT_EQUAL(sec[0], 0x10000 / 32);
	CU_ASSERT_EQUAL(sec[3], 0x10000 / 32 + 3);
	lanes(&ma, 0x10004, 4, 32); /* misaligned by one word: one more sector */
	CU_ASSERT_EQUAL(iw_coalesce(&ma, 4, sec, 128), 5);
	lanes(&ma, 0x10000, 128, 32); /* strided: every lane its own sector */
	CU_ASSERT_EQUAL(iw_coalesce(&ma, 4, sec, 128), 32);
	lanes(&ma, 0x10000, 0, 32); /* all lanes the same word */
	CU_ASSERT_EQUAL(iw_coalesce(&ma, 4, sec, 128), 1);
	lanes(&ma, 0x10000, -4, 32); /* descending from an aligned word: 0xff84..0x10003 */
	CU_ASSERT_EQUAL(iw_coalesce(&ma, 4, sec, 128), 5);
	CU_ASSERT(sec[0] < sec[1] && sec[1] < sec[2]);
	lanes(&ma, 0x10000, 16, 32); /* 16-byte lanes: 512 bytes */
	CU_ASSERT_EQUAL(iw_coalesce(&ma, 16, sec, 128), 16);
}

static void shared_bank_conflicts(void)
{
	struct iw_mem_addrs ma;
	lanes(&ma, 0, 4, 32);
	CU_ASSERT_EQUAL(iw_shmem_conflicts(&ma, 4, 32), 0);
	lanes(&ma, 0, 8, 32); /* two lanes per bank, different words: 2-way */
	CU_ASSERT_EQUAL(iw_shmem_conflicts(&ma, 4, 32), 1);
	lanes(&ma, 0, 128, 32); /* all lanes bank 0: 32-way */
	CU_ASSERT_EQUAL(iw_shmem_conflicts(&ma, 4, 32), 31);
	lanes(&ma, 64, 0, 32); /* one word: broadcast */
	CU_ASSERT_EQUAL(iw_shmem_conflicts(&ma, 4, 32), 0);

	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_memsys *m;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_memsys_new(&c, &m, &e), 0);
	uint64_t act[IW_A_COUNT] = {0};
	struct iw_inst in = mem_inst(IW_SPACE_SHARED, IW_F_LOAD, 4);
	lanes(&ma, 0, 4, 32);
	CU_ASSERT_EQUAL(iw_mem_access(m, 0, &in, &ma, 100, act), (uint32_t)c.shmem_latency);
	lanes(&ma, 0, 8, 32);
	CU_ASSERT_EQUAL(iw_mem_access(m, 0, &in, &ma, 200, act), (uint32_t)c.shmem_latency + 1);
	CU_ASSERT_EQUAL(act[IW_A_SHMEM_ACCESS], 2);
	CU_ASSERT_EQUAL(act[IW_A_SHMEM_CONFLICT], 1);
	iw_memsys_free(m);
}

static void hierarchy_latencies_and_counts(void)
{
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_memsys *m;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_memsys_new(&c, &m, &e), 0);
	uint64_t act[IW_A_COUNT] = {0};
	struct iw_mem_addrs ma;
	struct iw_inst ld = mem_inst(IW_SPACE_GLOBAL, IW_F_LOAD, 4);
	lanes(&ma, 0x100000, 4, 32);
	/* cold: L1 miss, L2 miss, DRAM */
	CU_ASSERT_EQUAL(iw_mem_access(m, 0, &ld, &ma, 1000, act), (uint32_t)(c.l2_latency + c.dram_latency));
	CU_ASSERT_EQUAL(act[IW_A_L1_ACCESS], 4);
	CU_ASSERT_EQUAL(act[IW_A_L1_MISS], 4);
	CU_ASSERT_EQUAL(act[IW_A_L2_MISS], 4);
	CU_ASSERT_EQUAL(act[IW_A_DRAM_ACCESS], 4);
	CU_ASSERT_EQUAL(act[IW_A_NOC_FLIT], 4);
	/* again on the same SM: L1 hit */
	CU_ASSERT_EQUAL(iw_mem_access(m, 0, &ld, &ma, 5000, act), (uint32_t)c.l1_latency);
	CU_ASSERT_EQUAL(act[IW_A_L1_HIT], 4);
	/* another SM: its own L1 misses, the shared L2 hits */
	CU_ASSERT_EQUAL(iw_mem_access(m, 1, &ld, &ma, 6000, act), (uint32_t)c.l2_latency);
	CU_ASSERT_EQUAL(act[IW_A_L2_HIT], 4);
	CU_ASSERT_EQUAL(act[IW_A_DRAM_ACCESS], 4);
	/* an uncoalesced access to L1-resident data pays for its 32 sectors:
	 * 32 sectors at l1_sectors_per_cycle */
	lanes(&ma, 0x200000, 128, 32);
	iw_mem_access(m, 2, &ld, &ma, 7000, act);
	uint32_t t = iw_mem_access(m, 2, &ld, &ma, 9000, act);
	CU_ASSERT_EQUAL(t, (uint32_t)(c.l1_latency + (32 + c.l1_sectors_per_cycle - 1) / c.l1_sectors_per_cycle - 1));
	/* back-to-back requests on one SM queue behind each other */
	uint32_t a = iw_mem_access(m, 2, &ld, &ma, 20000, act);
	uint32_t b = iw_mem_access(m, 2, &ld, &ma, 20000, act);
	CU_ASSERT(b > a);
	/* stores write through without allocating in L1 */
	struct iw_inst st = mem_inst(IW_SPACE_GLOBAL, IW_F_STORE, 4);
	lanes(&ma, 0x300000, 4, 32);
	uint64_t before = act[IW_A_L1_MISS];
	iw_mem_access(m, 3, &st, &ma, 30000, act);
	iw_mem_access(m, 3, &ld, &ma, 31000, act);
	CU_ASSERT_EQUAL(act[IW_A_L1_MISS] - before, 8);
	/* predicated off: nothing moves */
	uint64_t snap[IW_A_COUNT];
	memcpy(snap, act, sizeof snap);
	ld.mask = 0;
	iw_mem_access(m, 0, &ld, &ma, 40000, act);
	CU_ASSERT_EQUAL(memcmp(snap, act, sizeof snap), 0);
	iw_memsys_free(m);
}

static void lru_eviction_order(void)
{
	struct iw_config c;
	iw_config_defaults(&c);
	c.l1_kb = 1; /* 1 KiB / (128 B x 8 ways) = one set */
	c.l1_line = 128;
	c.l1_assoc = 8;
	struct iw_memsys *m;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_memsys_new(&c, &m, &e), 0);
	uint64_t act[IW_A_COUNT] = {0};
	struct iw_mem_addrs ma;
	struct iw_inst ld = mem_inst(IW_SPACE_GLOBAL, IW_F_LOAD, 4);
	ld.mask = 1;
	uint64_t now = 100;
#define TOUCH(line) (lanes(&ma, 0x40000 + (uint64_t)(line) * 128, 0, 1), iw_mem_access(m, 0, &ld, &ma, now += 1000, act))
	for (int i = 0; i < 8; i++)
		TOUCH(i);
	CU_ASSERT_EQUAL(act[IW_A_L1_MISS], 8);
	TOUCH(0); /* line 0 becomes most recent: line 1 is now the LRU */
	CU_ASSERT_EQUAL(act[IW_A_L1_HIT], 1);
	TOUCH(8); /* evicts line 1 */
	uint64_t miss = act[IW_A_L1_MISS];
	TOUCH(0);
	CU_ASSERT_EQUAL(act[IW_A_L1_MISS], miss);
	TOUCH(2);
	CU_ASSERT_EQUAL(act[IW_A_L1_MISS], miss);
	TOUCH(1); /* was evicted */
	CU_ASSERT_EQUAL(act[IW_A_L1_MISS], miss + 1);
#undef TOUCH
	iw_memsys_free(m);
}

static void without_addresses_uses_the_drawn_level(void)
{
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_memsys *m;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_memsys_new(&c, &m, &e), 0);
	uint64_t act[IW_A_COUNT] = {0};
	struct iw_inst ld = mem_inst(IW_SPACE_GLOBAL, IW_F_LOAD, 4);
	CU_ASSERT_EQUAL(iw_mem_access(m, 0, &ld, NULL, 100, act), (uint32_t)c.l1_latency);
	ld.mem_level = 2;
	CU_ASSERT_EQUAL(iw_mem_access(m, 0, &ld, NULL, 1000, act), (uint32_t)c.l2_latency);
	ld.mem_level = 3;
	CU_ASSERT_EQUAL(iw_mem_access(m, 0, &ld, NULL, 2000, act), (uint32_t)(c.l2_latency + c.dram_latency));
	CU_ASSERT_EQUAL(act[IW_A_DRAM_ACCESS], 4);
	CU_ASSERT_EQUAL(act[IW_A_L1_ACCESS], 12);
	struct iw_inst k = mem_inst(IW_SPACE_CONST, IW_F_LOAD, 4);
	CU_ASSERT_EQUAL(iw_mem_access(m, 0, &k, NULL, 3000, act), (uint32_t)c.const_latency);
	k.space = IW_SPACE_TEX;
	CU_ASSERT_EQUAL(iw_mem_access(m, 0, &k, NULL, 3000, act), (uint32_t)c.tex_latency);
	CU_ASSERT_EQUAL(act[IW_A_CONST_ACCESS], 2);
	/* DRAM bandwidth: many misses at once queue */
	uint32_t first = iw_mem_access(m, 0, &ld, NULL, 5000, act), last = first;
	for (int i = 0; i < 64; i++)
		last = iw_mem_access(m, (uint32_t)i % 8, &ld, NULL, 5000, act);
	CU_ASSERT(last > first);
	iw_memsys_free(m);
}

static void deterministic(void)
{
	struct iw_config c;
	iw_config_defaults(&c);
	uint32_t res[2][200];
	for (int run = 0; run < 2; run++) {
		struct iw_memsys *m;
		struct iw_err e = {0};
		CU_ASSERT_EQUAL_FATAL(iw_memsys_new(&c, &m, &e), 0);
		uint64_t act[IW_A_COUNT] = {0};
		struct iw_rng r;
		iw_rng_seed(&r, 7);
		struct iw_inst ld = mem_inst(IW_SPACE_GLOBAL, IW_F_LOAD, 4);
		struct iw_mem_addrs ma;
		for (int i = 0; i < 200; i++) {
			lanes(&ma, (iw_rng_next(&r) % (1u << 24)) & ~3ull, (int64_t)(iw_rng_below(&r, 5) * 4), 32);
			res[run][i] = iw_mem_access(m, iw_rng_below(&r, 4), &ld, &ma, (uint64_t)i * 10, act);
		}
		iw_memsys_free(m);
	}
	CU_ASSERT_EQUAL(memcmp(res[0], res[1], sizeof res[0]), 0);
}

/* The constant-stride path (the trace's address mode 1): an entry marked
 * strided must give the answers of the same lanes read one by one.  Lanes
 * base + i * stride, marked strided or not. */
static void entry_lanes(struct iw_mem_addrs *ma, uint64_t base, int32_t stride, uint32_t n, int strided)
{
	memset(ma, 0, sizeof *ma);
	lanes(ma, base, stride, n);
	ma->strided = (uint8_t)strided;
	ma->stride = stride;
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
	/* (strides up to a sector and widths up to 64 B: memsys.c's closed forms) */
	static const int32_t strides[] = {0, 1, 2, 4, 8, 12, 16, 24, 32, 33, 64, 128, 132, 4096, -4, -8, -128, 1 << 20};
	static const uint16_t widths[] = {1, 2, 4, 8, 16, 32, 64};
	static const uint8_t spaces[] = {IW_SPACE_SHARED, IW_SPACE_GLOBAL, IW_SPACE_LOCAL};
	struct iw_rng r;
	iw_rng_seed(&r, 11);
	int mismatches = 0;
	for (int i = 0; i < 4000; i++) {
		int space = spaces[iw_rng_below(&r, 3)];
		unsigned flags = iw_rng_below(&r, 4) ? IW_F_LOAD : IW_F_STORE;
		struct iw_inst in = mem_inst(space, flags, widths[iw_rng_below(&r, sizeof widths / sizeof widths[0])]);
		uint32_t n = 1 + (uint32_t)iw_rng_below(&r, 32);
		in.mask = n == 32 ? 0xffffffffu : (1u << n) - 1;
		/* bases near 2^64 too, where lanes wrap */
		uint64_t base = iw_rng_below(&r, 8) ? iw_rng_next(&r) % (1u << 22) : (uint64_t)0 - iw_rng_below(&r, 512);
		int32_t stride = strides[iw_rng_below(&r, sizeof strides / sizeof strides[0])];
		struct iw_mem_addrs sa, la;
		entry_lanes(&sa, base, stride, n, 1);
		entry_lanes(&la, base, stride, n, 0);
		uint32_t sm = (uint32_t)iw_rng_below(&r, 4);
		uint64_t now = (uint64_t)i * 3;
		/* shared accesses through the engine's two steps (conflicts at
		 * fetch, the access at dispatch), the others whole */
		uint32_t la_ans = iw_mem_access(b, sm, &in, &la, now, actb);
		uint32_t sa_ans = space == IW_SPACE_SHARED
					  ? iw_mem_access_shared(a, sm, &in, iw_mem_shared_conflicts(a, &in, &sa), now, acta)
					  : iw_mem_access_entry(a, sm, &in, &sa, now, acta, IW_MEM_NO_COOKIE);
		mismatches += sa_ans != la_ans;
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
	struct iw_inst in = mem_inst(IW_SPACE_SHARED, IW_F_LOAD, 4);
	struct iw_mem_addrs ma;
	entry_lanes(&ma, 0, 128, 32, 0); /* all lanes on bank 0: 32-way */
	ma.stride = 4;             /* stale, not marked */
	CU_ASSERT_EQUAL(iw_mem_access_entry(m, 0, &in, &ma, 100, act, IW_MEM_NO_COOKIE), (uint32_t)(c.shmem_latency + 31));
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

/* A trace of `ctas` one-warp CTAs, each running the instruction lines
 * `body` (Accel-Sim version 5 lines, one per element, EXIT added), run
 * under inorder with the default configuration in SM-major (cycle_major 0)
 * or the reference cycle-major order. */
static int run_lines(const char *const *body, int n, int ctas, int cycle_major, struct iw_run_result *r)
{
	const char *dir = tu_tmpdir();
	char path[600];
	if (!dir)
		return -1;
	snprintf(path, sizeof path, "%s/kernelslist.g", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs("kernel-1.traceg\n", f);
	fclose(f);
	snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
	if (!(f = fopen(path, "w")))
		return -1;
	fprintf(f, "-kernel name = k\n-kernel id = 1\n-grid dim = (%d,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n"
		"-nregs = 16\n-binary version = 70\n-cuda stream id = 0\n-nvbit version = 1.5.5\n"
		"-accelsim tracer version = 5\n\n#traces format = x\n\n",
		ctas);
	for (int b = 0; b < ctas; b++) {
		fprintf(f, "#BEGIN_TB\nthread block = %d,0,0\nwarp = 0\ninsts = %d\n", b, n + 1);
		for (int i = 0; i < n; i++)
			fprintf(f, "%04x %s\n", 16 * i, body[i]);
		fprintf(f, "%04x ffffffff 0 EXIT 0 0 0\n#END_TB\n", 16 * n);
	}
	fclose(f);
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_workload *wl;
	struct iw_err e = {0};
	if (iw_trace_open(dir, &wl, &e)) {
		fprintf(stderr, "trace: %s\n", e.msg);
		return -1;
	}
	struct iw_sim_opts o = {.cfg = &c, .scheme = "inorder", .cycle_major = cycle_major};
	int rc = iw_simulate(&o, wl, r, &e);
	if (rc)
		fprintf(stderr, "simulate: %s\n", e.msg);
	iw_workload_close(wl);
	return rc;
}

/* A load of a sector whose miss is still in flight merges into it (an MSHR
 * hit, GPGPU-Sim's HIT_RESERVED): it waits for that fill and sends nothing
 * down; it counted as an L1 hit of l1_latency, as if the data were there.
 * Hand-derived: in LDG G; LDG G (independent); LDG H (needs the second), the
 * second load dispatches a cycle after the first and its data arrives with
 * the first's, l2_latency + dram_latency later (L1, L2 miss); H then takes as
 * long again.  So the program takes exactly the cycles of the control
 * without the first load (its second load issues in the cycle the first
 * did), 1,242 at the defaults (2 x 613 plus the pipeline), not 658.  The
 * same for two SMs reading one sector: the second merges into the first's
 * L2 miss (l2.hit, no second DRAM access) and waits for its fill. */
static void a_load_merging_into_a_miss_in_flight_waits_for_its_fill(void)
{
	static const char *const same[] = {
		"00000001 1 R8 LDG.E.SYS 1 R4 4 0 0x7f0000100000 0",
		"00000001 1 R10 LDG.E.SYS 1 R4 4 0 0x7f0000100000 0",
		"00000001 1 R12 LDG.E.SYS 1 R10 4 0 0x7f0000200000 0",
	};
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_run_result ctrl, r, rc, two;
	CU_ASSERT_EQUAL_FATAL(run_lines(same + 1, 2, 1, 0, &ctrl), 0);
	CU_ASSERT_EQUAL_FATAL(run_lines(same, 3, 1, 0, &r), 0);
	CU_ASSERT(ctrl.cycles >= 2 * (uint64_t)(c.l2_latency + c.dram_latency));
	CU_ASSERT_EQUAL(r.cycles, ctrl.cycles);
	CU_ASSERT_EQUAL(r.act[IW_A_L1_HIT], 1);
	CU_ASSERT_EQUAL(r.act[IW_A_L1_HIT] + r.act[IW_A_L1_MISS], r.act[IW_A_L1_ACCESS]);
	CU_ASSERT_EQUAL(r.act[IW_A_DRAM_ACCESS], 2);
	CU_ASSERT_EQUAL_FATAL(run_lines(same, 3, 1, 1, &rc), 0); /* the reference order agrees */
	CU_ASSERT_EQUAL(rc.cycles, r.cycles);
	/* two CTAs (two SMs), each: LDG G; LDG H dependent */
	static const char *const two_sms[] = {
		"00000001 1 R8 LDG.E.SYS 1 R4 4 0 0x7f0000100000 0",
		"00000001 1 R12 LDG.E.SYS 1 R8 4 0 0x7f0000200000 0",
	};
	CU_ASSERT_EQUAL_FATAL(run_lines(two_sms, 2, 2, 0, &two), 0);
	CU_ASSERT_EQUAL(two.cycles, ctrl.cycles);
	CU_ASSERT_EQUAL(two.act[IW_A_L2_HIT], 2); /* the merges */
	CU_ASSERT_EQUAL(two.act[IW_A_DRAM_ACCESS], 2);
	iw_run_result_free(&ctrl);
	iw_run_result_free(&r);
	iw_run_result_free(&rc);
	iw_run_result_free(&two);

	/* the model alone: the second request answers with the first's arrival */
	struct iw_memsys *m;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_memsys_new(&c, &m, &e), 0);
	uint64_t act[IW_A_COUNT] = {0};
	struct iw_mem_addrs ma;
	struct iw_inst ld = mem_inst(IW_SPACE_GLOBAL, IW_F_LOAD, 4);
	lanes(&ma, 0x100000, 4, 32);
	uint32_t miss = iw_mem_access(m, 0, &ld, &ma, 1000, act);
	CU_ASSERT_EQUAL(iw_mem_access(m, 0, &ld, &ma, 1010, act), miss - 10);
	CU_ASSERT_EQUAL(iw_mem_access(m, 1, &ld, &ma, 1010, act), miss - 10); /* merged in L2 */
	CU_ASSERT_EQUAL(iw_mem_access(m, 0, &ld, &ma, 1000 + miss, act), (uint32_t)c.l1_latency); /* arrived */
	CU_ASSERT_EQUAL(act[IW_A_DRAM_ACCESS], 4);
	iw_memsys_free(m);
}

/* Stores without addresses write back what does not stay in L2, as the trace
 * path's dirty evictions do.  A store drawn at DRAM: an L2 miss (allocated
 * without a read) and one DRAM transfer per sector; drawn at L2: a hit, no
 * DRAM.  vecadd streams three arrays of 10.5 MB through the 6 MB L2: its
 * DRAM transfers are a's and b's 92% and c's 80% (annotated l2=0.2), 2.64 x
 * c's sectors (S = a third of the L2 accesses); without the write-backs they
 * were 1.84 x S (17-34% of the cycles short at scale 1). */
static void stores_without_addresses_write_back_what_leaves_l2(void)
{
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_memsys *m;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_memsys_new(&c, &m, &e), 0);
	uint64_t act[IW_A_COUNT] = {0};
	struct iw_inst st = mem_inst(IW_SPACE_GLOBAL, IW_F_STORE, 4);
	st.mem_level = 2;
	CU_ASSERT_EQUAL(iw_mem_access(m, 0, &st, NULL, 100, act), (uint32_t)c.l1_latency);
	CU_ASSERT_EQUAL(act[IW_A_DRAM_ACCESS], 0);
	CU_ASSERT_EQUAL(act[IW_A_L2_HIT], 4);
	st.mem_level = 3;
	CU_ASSERT_EQUAL(iw_mem_access(m, 0, &st, NULL, 200, act), (uint32_t)c.l1_latency); /* nobody waits */
	CU_ASSERT_EQUAL(act[IW_A_DRAM_ACCESS], 4);
	CU_ASSERT_EQUAL(act[IW_A_L2_MISS], 4);
	iw_memsys_free(m);

	struct iw_workload *w;
	CU_ASSERT_EQUAL_FATAL(iw_builtin_open("vecadd", 1, 0.1, &w, &e), 0);
	struct iw_sim_opts o = {.cfg = &c, .scheme = "inorder"};
	struct iw_run_result r;
	CU_ASSERT_EQUAL_FATAL(iw_simulate(&o, w, &r, &e), 0);
	iw_workload_close(w);
	double S = (double)r.act[IW_A_L2_ACCESS] / 3, dram = (double)r.act[IW_A_DRAM_ACCESS];
	CU_ASSERT(dram > 2.64 * S * 0.99 && dram < 2.64 * S * 1.01);
	CU_ASSERT_EQUAL(r.act[IW_A_L2_HIT] + r.act[IW_A_L2_MISS], r.act[IW_A_L2_ACCESS]);
	iw_run_result_free(&r);
}

/* A shared-memory access without addresses is modelled as contiguous lanes,
 * as the trace path gives them: 32 lanes of 16 bytes (LDS.128) take 4
 * wavefronts (3 cycles beyond the latency), of 8 bytes 2, of 4 bytes 1; a
 * half-masked LDS.128 2.  It took 1 whatever the width. */
static void shared_without_addresses_takes_the_wavefronts_of_its_width(void)
{
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_memsys *m;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_memsys_new(&c, &m, &e), 0);
	uint64_t act[IW_A_COUNT] = {0};
	struct iw_mem_addrs ma;
	static const uint16_t widths[] = {4, 8, 16};
	for (int i = 0; i < 3; i++) {
		struct iw_inst in = mem_inst(IW_SPACE_SHARED, IW_F_LOAD, widths[i]);
		lanes(&ma, 0, widths[i], 32);
		uint32_t traced = iw_mem_access(m, 0, &in, &ma, 1000 + 200 * (uint64_t)i, act);
		CU_ASSERT_EQUAL(iw_mem_access(m, 0, &in, NULL, 1100 + 200 * (uint64_t)i, act), traced);
	}
	struct iw_inst in = mem_inst(IW_SPACE_SHARED, IW_F_LOAD, 16);
	CU_ASSERT_EQUAL(iw_mem_access(m, 0, &in, NULL, 3000, act), (uint32_t)c.shmem_latency + 3);
	in.mask = 0xffff;
	CU_ASSERT_EQUAL(iw_mem_access(m, 0, &in, NULL, 4000, act), (uint32_t)c.shmem_latency + 1);
	iw_memsys_free(m);
}

/* A reduction is a read-modify-write at L2, as an atomic: its miss reads the
 * sector from DRAM (it read nothing, and a load of the sector after it hit
 * L2 at 205 cycles).  RED G then LDG G: one DRAM transfer, and the load
 * merges into the reduction's fill (l2_latency + dram_latency at least). */
static void a_reduction_missing_l2_reads_dram(void)
{
	static const char *const red_ld[] = {
		"00000001 0 RED.E.ADD.STRONG.GPU 2 R4 R2 4 0 0x7f0000100000 0",
		"00000001 1 R8 LDG.E.SYS 1 R4 4 0 0x7f0000100000 0",
	};
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_run_result r;
	CU_ASSERT_EQUAL_FATAL(run_lines(red_ld, 2, 1, 0, &r), 0);
	CU_ASSERT_EQUAL(r.act[IW_A_DRAM_ACCESS], 1);
	CU_ASSERT_EQUAL(r.act[IW_A_L2_MISS], 1);
	CU_ASSERT(r.cycles >= (uint64_t)(c.l2_latency + c.dram_latency));
	iw_run_result_free(&r);
}

/* A store that writes part of a sector leaves it needing a fill: a later
 * load of the sector reads DRAM once (STG of 4 bytes at G, LDG at G + 4: it
 * hit L2 at 205 cycles with no DRAM access).  A store writing all 32 bytes
 * (8 lanes x 4 contiguous bytes) makes the sector whole: the load hits L2. */
static void a_partial_sector_store_leaves_the_sector_to_fill(void)
{
	static const char *const part[] = {
		"00000001 0 STG.E.SYS 2 R4 R2 4 0 0x7f0000100000 0",
		"00000001 1 R8 LDG.E.SYS 1 R4 4 0 0x7f0000100004 0",
	};
	static const char *const whole[] = {
		"000000ff 0 STG.E.SYS 2 R4 R2 4 1 0x7f0000100000 4 0",
		"00000001 1 R8 LDG.E.SYS 1 R4 4 0 0x7f0000100004 0",
	};
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_run_result r;
	CU_ASSERT_EQUAL_FATAL(run_lines(part, 2, 1, 0, &r), 0);
	CU_ASSERT_EQUAL(r.act[IW_A_DRAM_ACCESS], 1);
	CU_ASSERT(r.cycles >= (uint64_t)(c.l2_latency + c.dram_latency));
	iw_run_result_free(&r);
	CU_ASSERT_EQUAL_FATAL(run_lines(whole, 2, 1, 0, &r), 0);
	CU_ASSERT_EQUAL(r.act[IW_A_DRAM_ACCESS], 0);
	CU_ASSERT_EQUAL(r.act[IW_A_L2_HIT], 1);
	CU_ASSERT(r.cycles < (uint64_t)(c.l2_latency + c.dram_latency));
	iw_run_result_free(&r);
}

/* shmem.conflict counts bank conflicts only, as Nsight does: a contiguous
 * LDS.64 takes 2 wavefronts and LDS.128 4 with no conflict (counted as
 * shmem.wavefront, at the same cost in cycles); LDS.64 at a 16-byte stride
 * takes 4, 2 of them conflicts.  They were all counted as conflicts. */
static void wide_shared_accesses_are_not_bank_conflicts(void)
{
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_memsys *m;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_memsys_new(&c, &m, &e), 0);
	uint64_t act[IW_A_COUNT] = {0};
	struct iw_mem_addrs ma;
	struct iw_inst in = mem_inst(IW_SPACE_SHARED, IW_F_LOAD, 8);
	lanes(&ma, 0, 8, 32);
	CU_ASSERT_EQUAL(iw_mem_access(m, 0, &in, &ma, 100, act), (uint32_t)c.shmem_latency + 1);
	CU_ASSERT_EQUAL(act[IW_A_SHMEM_CONFLICT], 0);
	CU_ASSERT_EQUAL(act[IW_A_SHMEM_WAVEFRONT], 1);
	in.mem_width = 16;
	lanes(&ma, 0, 16, 32);
	CU_ASSERT_EQUAL(iw_mem_access(m, 0, &in, &ma, 200, act), (uint32_t)c.shmem_latency + 3);
	CU_ASSERT_EQUAL(act[IW_A_SHMEM_CONFLICT], 0);
	CU_ASSERT_EQUAL(act[IW_A_SHMEM_WAVEFRONT], 4);
	in.mem_width = 8;
	CU_ASSERT_EQUAL(iw_mem_access(m, 0, &in, &ma, 300, act), (uint32_t)c.shmem_latency + 3);
	CU_ASSERT_EQUAL(act[IW_A_SHMEM_CONFLICT], 2);
	CU_ASSERT_EQUAL(act[IW_A_SHMEM_WAVEFRONT], 5);
	iw_memsys_free(m);
}

void suite_memsys(void)
{
	TU_SUITE("memsys", {"coalescing", coalescing}, {"shared_bank_conflicts", shared_bank_conflicts},
		 {"hierarchy_latencies_and_counts", hierarchy_latencies_and_counts},
		 {"lru_eviction_order", lru_eviction_order},
		 {"without_addresses_uses_the_drawn_level", without_addresses_uses_the_drawn_level},
		 {"deterministic", deterministic},
		 {"stride_gives_the_lane_answers", stride_gives_the_lane_answers},
		 {"unmarked_entry_reads_every_lane", unmarked_entry_reads_every_lane},
		 {"trace_marks_mode1_lines", trace_marks_mode1_lines},
		 {"a_load_merging_into_a_miss_in_flight_waits_for_its_fill",
		  a_load_merging_into_a_miss_in_flight_waits_for_its_fill},
		 {"stores_without_addresses_write_back_what_leaves_l2", stores_without_addresses_write_back_what_leaves_l2},
		 {"shared_without_addresses_takes_the_wavefronts_of_its_width",
		  shared_without_addresses_takes_the_wavefronts_of_its_width},
		 {"a_reduction_missing_l2_reads_dram", a_reduction_missing_l2_reads_dram},
		 {"a_partial_sector_store_leaves_the_sector_to_fill", a_partial_sector_store_leaves_the_sector_to_fill},
		 {"wide_shared_accesses_are_not_bank_conflicts", wide_shared_accesses_are_not_bank_conflicts});
}
