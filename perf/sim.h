/*
 * perf/sim.h -- perf-internal: the SM model's state as the issue schemes see
 * it, the scheme interface (a vtable, after Ramulator 2 and Multi2Sim), and the
 * helpers a scheme may call.  The model never tests which scheme it runs: all
 * scheme behaviour sits behind struct iw_scheme_ops.
 *
 * Activities: count them only where state changes (insert, issue, read,
 * dispatch, write-back), never per idle cycle: fast-forward skips idle cycles,
 * and the per-cycle cost of always-on logic is the structure's leakage and
 * clock power in power/.
 *
 * Pipeline per sub-core and cycle, evaluated in reverse so nothing crosses two
 * stages in one cycle (Multi2Sim): write-back, dispatch, operand collection,
 * scheme tick (e.g. GhOST's checker), issue, decode (insert), fetch.
 */
#ifndef IW_SIM_H
#define IW_SIM_H

#include "memsys.h"
#include "perf.h"

#define IW_NEVER UINT64_MAX
#define IW_SPAN 256u /* longest span of cycles an SM runs alone in the SM-major order */
#define IW_WHEEL 1024u /* cycles the sub-core timing wheel spans (a power of two) */
#define IW_INSERT_FULL (-1) /* insert(): accepted, the buffer is now full */
#define IW_INSERT_UNTIL_ROOM 2 /* insert_until_issue: refused until iw_sim_insert_room */

enum iw_slot_state {
	IW_SLOT_FREE,
	IW_SLOT_FRONT,   /* fetched and decoded, in the warp's front buffer */
	IW_SLOT_SCHEME,  /* inserted into the scheme's buffers, not yet issued */
	IW_SLOT_COLLECT, /* issued into a collector unit, reading operands */
	IW_SLOT_EXEC,    /* dispatched to a unit, result pending */
	IW_SLOT_BARRIER, /* executed barrier waiting for the CTA */
};

/* One dynamic instruction from fetch to retirement: exactly two cache lines
 * (the pools are cache-line aligned), the first holding what every stage
 * reads.  A third line per slot cost schemes with large windows (ideal's 88
 * slots per warp) host cache misses at fetch and issue. */
struct iw_slot {
	struct iw_inst in;
	uint64_t seq;        /* per-warp program order */
	uint32_t warp;       /* warp index in the SM */
	uint16_t id;         /* index in the warp's slot pool */
	uint8_t state;       /* enum iw_slot_state */
	uint8_t cu;          /* collector unit while collecting */
	/* The second line is touched only where it is used: by a scheme that
	 * keeps aux (set by itself: ghost, loog) and by the RF source list
	 * where sim_init's slot_operands asks for it.  With inorder, ideal and
	 * socgpu nothing writes it (their slots are one line of host cache
	 * each: ideal's stay in the
	 * window for hundreds of cycles and would miss on it at issue; socgpu
	 * keeps its per-instruction state in a per-warp array indexed by slot
	 * id).  GhOST keeps its IsB state in aux: moved out, it ran slower
	 * (perf/README.md). */
	_Alignas(64) uint64_t aux[4]; /* private to the scheme (entry index, tags, times) */
	uint8_t srcs_left;   /* source operands still to read from the RF (slot_operands) */
	uint8_t nsrc_rf;     /* sources to read from the RF (RZ and duplicates removed; slot_operands) */
	uint8_t src_rf[IW_MAX_SRC]; /* registers are below IW_REG_RZ (255) */
};
_Static_assert(sizeof(struct iw_slot) == 128, "struct iw_slot is two cache lines");

/* Start fetching both lines of a slot the engine or a scheme will soon
 * read and write (a GPU's warps do not fit in the host's caches). */
static inline void iw_slot_prefetch(const struct iw_slot *s)
{
	__builtin_prefetch(s, 1);
	__builtin_prefetch((const char *)s + 64, 1);
}

struct iw_sm;
struct iw_sim;

struct iw_cta_slot {
	struct iw_cta cta;
	int used;
	uint32_t live_warps;   /* warps not yet finished */
	uint32_t bar_arrived;  /* warps whose barrier executed */
	uint32_t nwarps;
	uint32_t *warp_ids;    /* warp index in the SM of each warp of the CTA */
	uint32_t threads, regs, shmem;
};

/* Barrier slots a warp remembers by id, so a release does not scan a large
 * window's slots (ideal's: 88 slots of two cache lines each). */
#define IW_BAR_IDS 4
struct iw_warp {
	/* the pools and queues of its in-flight instructions (one allocation
	 * block per warp, next to each other) */
	struct iw_slot *slots; /* pool of sim->window slots */
	uint16_t *free_ids;
	uint16_t *front;       /* ring of slot ids, capacity cfg->fetch_buffer */
	/* Inserted instructions in program order, (slot id, seq) pairs, consumed
	 * lazily: the head is the oldest unissued one, so in-order issue costs O(1)
	 * and only a reorder walks the queue to measure its distance. */
	uint16_t *uq_id;
	uint64_t *uq_seq;
	struct iw_cta_slot *cta;
	/* Lane addresses of in-flight memory instructions (traces only): the
	 * SM's pool (sim.c, maddr_pools_new), NULL until the run's first. */
	struct iw_mem_addrs *maddr;
	uint64_t next_seq;
	uint32_t id, subcore, sm;
	uint32_t local;        /* index within its sub-core */
	uint32_t inflight;     /* slots in use */
	uint32_t nfree;
	uint32_t front_head, front_n;
	uint32_t uq_head, uq_n, uq_cap;
	uint32_t warp_in_cta;
	uint32_t maddr_used;   /* entries of the pool it holds (at most iw_sim.maddr_cap) */
	uint32_t nbar;         /* slots in IW_SLOT_BARRIER state */
	uint16_t bar_ids[IW_BAR_IDS]; /* the first of them (all if nbar <= IW_BAR_IDS) */
	uint8_t active;        /* holds a warp of a CTA */
	uint8_t fetch_done;    /* the workload has no more instructions */
	uint8_t fetch_blocked; /* a taken control instruction is in flight */
	uint64_t start;        /* first cycle it may fetch (launch cycle + 1) */
	uint64_t age;          /* launch order (GTO's "oldest") */
	uint64_t last_issue;   /* cycle of the last issue (GTO greedy) */
	uint64_t unissued;     /* instructions inserted but not issued */
};
/* In-flight memory instructions with lane addresses per warp: as many as the
 * warp's slots (a scheme's whole window can be loads), up to this bound on
 * the pool's memory (ideal.window beyond it is capped for traced loads). */
#define IW_MADDR_PER_WARP_MAX 256

struct iw_cu {
	int busy;
	uint32_t warp;
	uint16_t slot;
	uint64_t t_alloc;
	uint8_t unit;          /* unit class of its instruction */
	uint8_t left;          /* operands still to read (shared collect stage) */
	/* The operands still to read, for the shared collect stage: with
	 * sim->collect_packed the number in each bank b, in bits 4b..4b+3;
	 * otherwise the bank of each, first `left`, in the order it tries them. */
	uint32_t nbank;
	uint16_t reg[IW_MAX_SRC];
};

struct iw_wb_event {
	uint64_t t;
	uint64_t key;          /* tie-break: (warp << 40) | seq, deterministic */
	uint32_t warp;
	uint16_t slot;
};

struct iw_subcore {
	/* Fields every tick reads come first (one or two cache lines): a GPU has
	 * hundreds of sub-cores, and between two ticks of one the others have
	 * evicted it from the host's L1. */
	uint64_t *wake;          /* next cycle this sub-core must be ticked (in sim->sc_wake) */
	uint64_t next_wb;        /* time of the earliest write-back event (IW_NEVER if none) */
	uint64_t acct;           /* first cycle whose stall reason is not yet counted */
	uint64_t front_mask;     /* local warps with a non-empty front buffer */
	uint64_t active_mask;    /* local warps holding a warp of a CTA, started */
	uint64_t unstarted_mask; /* launched, starting at their w->start */
	uint64_t blocked_mask;   /* local warps whose candidate() is known to be NULL */
	uint64_t noinsert_mask;  /* local warps whose insert() refused, until their next event */
	uint64_t ibfull_mask;    /* ... and, with insert_until_issue, until their next issue
				  * (IW_INSERT_UNTIL_ROOM: until iw_sim_insert_room) */
	uint64_t nofetch_mask;   /* local warps that cannot fetch, until their next event */
	/* local warps whose candidate waited at the last issue stage for a unit
	 * of its class (classes in fu_wait) or for a collector unit, until their
	 * next event: they can move only when a unit or a CU frees */
	uint64_t stalled_mask;
	uint64_t cand_mask;      /* local warps whose candidate is in ccand[] (until their next event) */
	uint64_t bar_mask;       /* local warps with an issued barrier not yet written back (SRR's "waiting") */
	uint64_t cu_busy;        /* bit per busy collector unit */
	uint64_t cu_reading;     /* bit per collector unit still reading operands */
	uint64_t cu_all;         /* bits of all ncu collector units */
	uint32_t norder;         /* entries in order[] */
	uint32_t greedy;         /* GTO: warp issued last (UINT32_MAX none) */
	uint32_t rr;             /* LRR/SRR: the last warp to issue (local index) */
	uint32_t turn;           /* SRR: the only warp the scheduler looks at (64: none can take it) */
	uint32_t fetch_rr;
	uint32_t nwb, capwb;
	uint32_t ncu_fifo;
	uint8_t last_reason;     /* reason of the last ticked cycle (IW_STALL_COUNT = issued) */
	uint32_t reason_warp;    /* the local warp that named the last tick's stall reason (64: none) */
	uint8_t fu_wait;         /* unit classes a stalled candidate waits for (bit per enum iw_unit) */
	uint8_t cu_fifo[64];     /* busy collector units in allocation order (engine collect stage only) */
	uint8_t order[64];       /* active warps (local index), oldest first (GTO's order) */
	uint8_t opos[64];        /* position of each local warp in order[] (0xff: not in it) */
	uint64_t named_mask;     /* local warps whose creason is not IW_STALL_IB_EMPTY */
	struct iw_warp **wp;     /* each local warp */
	struct iw_sm *sm;
	uint32_t *warp_ids;
	struct iw_cu *cu;
	struct iw_wb_event *wb;  /* pending write-backs, latest first */
	uint64_t *fu_free[IW_UNIT_COUNT]; /* per unit: first cycle it accepts a warp */
	uint64_t *fu_all;        /* the storage fu_free points into, all classes contiguous */
	uint32_t nfu_all;        /* entries in fu_all */
	uint64_t fu_min[IW_UNIT_COUNT]; /* per class: the earliest fu_free of its units (IW_NEVER if none),
				   * so "is one free?" is one compare, not a walk */
	uint32_t ncu;
	uint32_t id;
	uint32_t gid;            /* index over all SMs' sub-cores (sim->scs) */
	uint32_t nwarps;         /* warp slots in this sub-core */
	uint64_t no_cu_run;      /* length of the current run of no_cu cycles */
	uint8_t creason[64];     /* cached stall reason per local warp (valid while blocked) */
	struct iw_slot *ccand[64];   /* a warp's last candidate, valid where cand_mask is set */
};

struct iw_sm {
	uint32_t id;
	struct iw_sim *sim;
	struct iw_subcore *sc;
	struct iw_warp *warps;
	struct iw_cta_slot *ctas;
	uint32_t used_threads, used_regs, used_shmem, used_ctas, used_warps;
	int refill;            /* a CTA finished this cycle: the CTA scheduler refills it at the cycle's end */
	/* Its busy period in the current kernel (iw_run_result.sm_busy_mean):
	 * from the cycle its first CTA launched to the cycle its last finished. */
	int busy;
	uint64_t busy_from, busy_last;
	void *scheme_state;
};

struct iw_scheme_ops {
	const char *name;
	const char *help;
	/* Instructions the scheme may hold per warp (sizes the slot pool). */
	uint32_t (*window)(const struct iw_config *c);
	/* Collector units per sub-core (0 = use opc.cus). */
	uint32_t (*cus)(const struct iw_config *c);
	/* For utilisation: the entries the occupancy integrals count (enum
	 * iw_occ; IB and IsB per warp, CUs and RRS per sub-core), given the
	 * engine's view (IB: window, CUs: cus, no IsB or RRS) for a scheme whose
	 * structures differ to correct.  May be NULL. */
	void (*entries)(const struct iw_config *c, uint32_t e[IW_OCC_COUNT]);
	/* Results written back per cycle per sub-core (NULL = core.wb_width). */
	uint32_t (*wb_width)(const struct iw_config *c);
	/* Non-zero if only instructions with a result (iw_has_result) take
	 * one of those slots; one without (a store, a branch) completes when
	 * due, past results that wait (LOOG: the slots are its broadcast bus,
	 * and such an instruction broadcasts nothing). */
	int wb_results_only;
	/* Non-zero: nothing of the scheme reads an in-flight memory
	 * instruction's lane addresses after its dispatch (no memory
	 * disambiguation), so the engine frees the address pool entry there,
	 * while the memory model has just read it: the next fetch of a memory
	 * instruction takes that entry, still in the host's cache.  Zero (the
	 * safe default): the entry is freed at write-back.  Either way the
	 * warp's count of entries (the fetch limit) drops at write-back. */
	int frees_addresses_at_dispatch;
	/* Non-zero: fetch continues past taken control (only `ideal`). */
	int (*fetch_through_control)(const struct iw_config *c);
	int (*sm_new)(struct iw_sm *sm, void **state, struct iw_err *e);
	void (*sm_free)(void *state);
	void (*warp_start)(void *st, struct iw_warp *w);
	/* Decode: accept the warp's oldest front-buffer instruction (0) or refuse
	 * (a stall reason, usually IW_STALL_IB_FULL).  With insert_until_issue,
	 * IW_INSERT_FULL accepts it and tells that the next would be refused
	 * until the warp's next issue (saves asking). */
	int (*insert)(void *st, struct iw_warp *w, struct iw_slot *s, uint64_t now);
	/* Once per sub-core per cycle before issue (GhOST's checker/scheduler);
	 * returns non-zero if it changed any state. May be NULL. */
	int (*tick)(void *st, struct iw_subcore *sc, uint64_t now);
	/* The instruction this warp offers the scheduler, or NULL and *reason. */
	struct iw_slot *(*candidate)(void *st, struct iw_warp *w, uint64_t now, int *reason);
	/* 1 if a NULL answer of candidate() for a warp stays NULL until one of
	 * that warp's own events (insert, issue, operands read, dispatch,
	 * write-back) or a tick of the scheme that returned progress; 2 if only
	 * insert, issue and write-back (and scheme ticks) can change it.  The
	 * engine then skips asking again, which saves much of the model's time
	 * (the check touches the warp's buffers, a cache miss each).  0: ask
	 * every cycle. */
	int candidate_cacheable;
	/* Non-zero if, under configuration c, an instruction candidate() offers
	 * stays its answer until one of the warp's own events: the engine then
	 * keeps it while the warp waits for a unit or a collector unit.  A
	 * scheme whose offers change otherwise clears sc->cand_mask when they
	 * do (LOOG when its RRS runs out).  NULL: as the engine assumes of
	 * schemes without a tick or their own collect stage.  0 for one that
	 * picks by which units are free (ideal): a unit freeing is no event of
	 * the warp, so its offers are asked again at every issue stage, and
	 * candidate() names the classes of the busy units it passed over
	 * (iw_sim_wait_units) so that the sub-core wakes when one frees. */
	int (*cand_stable)(const struct iw_config *c);
	/* Non-zero if the scheme only ever offers a warp's oldest unissued
	 * instruction: nothing to reorder, so the engine keeps no program-order
	 * queue for the reorder statistics. */
	int in_order;
	/* Non-zero if issue() records the reorder statistics itself
	 * (cnt.reorders, cnt.reorder_dist: how many older instructions of the
	 * warp were inserted and not yet issued, the last bin holding
	 * IW_REORDER_BINS or more), exactly as iw_sim_count_reorder would: the
	 * engine then keeps no program-order queue (a scheme that knows its
	 * entries in program order counts them for far less). */
	int counts_reorders;
	/* Non-zero if a refused insert() stays refused until the warp's next
	 * issue (its buffer frees entries only then), not merely its next event.
	 * IW_INSERT_UNTIL_ROOM: until the scheme frees an entry and says so with
	 * iw_sim_insert_room (GhOST's tick drains its IB into the IsB; ideal's
	 * window frees at write-back). */
	int insert_until_issue;
	/* Non-zero if an accepted insert() seldom changes the warp's candidate
	 * (GhOST: it enters the IB, not yet the IsB): the engine then keeps the
	 * cached answer, and insert() calls iw_sim_cand_changed when it does. */
	int insert_keeps_candidate;
	/* Non-zero if tick() calls iw_sim_unblock for every warp whose
	 * candidate or decode it may have changed; otherwise a tick with
	 * progress makes the engine ask every warp of the sub-core again. */
	int tick_unblocks;
	/* With tick_unblocks: non-zero if tick() could change something in the
	 * next cycle without an event of a warp (work queued inside the scheme).
	 * The engine then sees everything the scheme can do and sleeps through
	 * stalls as for schemes without a tick.  May be NULL (the scheme is
	 * ticked every cycle after progress). */
	int (*busy)(void *st, const struct iw_subcore *sc);
	/* The scheduler issued s into collector unit s->cu. */
	void (*issue)(void *st, struct iw_warp *w, struct iw_slot *s, uint64_t now);
	/* All RF operands of s were read (SOCGPU release_at=operands). May be NULL. */
	void (*operands_read)(void *st, struct iw_warp *w, struct iw_slot *s, uint64_t now);
	/* s was dispatched to a unit. May be NULL. */
	void (*dispatch)(void *st, struct iw_warp *w, struct iw_slot *s, uint64_t now);
	/* s wrote back (dependences clear); it retires right after.  Returns how
	 * many destination registers were written to the RF (LOOG drops results
	 * of renamed registers; everyone else returns s->in.ndst). */
	int (*writeback)(void *st, struct iw_warp *w, struct iw_slot *s, uint64_t now);
	/* Earliest future cycle at which a timer of the scheme changes a decision
	 * (IW_NEVER if none); needed for exact fast-forward. May be NULL. */
	uint64_t (*next_event)(void *st, uint64_t now);
	/* Replace the shared operand-collection and dispatch stage (LOOG's
	 * reservation stations); returns non-zero on progress. NULL = shared stage. */
	int (*collect)(void *st, struct iw_subcore *sc, uint64_t now);
};

/* The registry (perf/schemes.c): one entry per scheme, in report order. */
extern const struct iw_scheme_ops *const iw_scheme_registry[];
extern const size_t iw_scheme_registry_len;

/* Everything one simulation owns. */
struct iw_sim {
	const struct iw_config *cfg;
	const struct iw_scheme_ops *ops;
	struct iw_workload *wl;
	struct iw_memsys *mem;
	struct iw_run_result *res;
	struct iw_err *err;
	struct iw_sm *sms;
	uint64_t sm_cycles;      /* the SMs' busy periods of the kernels that ended, summed */
	/* the open kernel's record (res->kstats[res->nkstats - 1]): what the
	 * run had when it started, and where the next kernel starts */
	int kstat_live;
	size_t kstats_cap;
	uint64_t k_insts0, k_ctas0, k_smc0, k_next_start;
	uint64_t k_stall0[IW_STALL_COUNT], k_thr0;
	/* with an on_kernel hook: the run's activities when the kernel started */
	void (*on_kernel)(void *ctx, const struct iw_run_result *kernel, struct iw_kernel_stat *k);
	void *kernel_ctx;
	uint64_t *k_act0;        /* IW_A_COUNT */
	struct iw_run_result *k_part; /* the kernel's counts, handed to the hook */
	uint64_t *sc_wake;      /* next cycle each sub-core must be ticked, SM after SM */
	/* The sub-cores to tick, by cycle: a timing wheel of IW_WHEEL slots, each
	 * a bitmap over all sub-cores (index SM * subcores + sub-core, the tick
	 * order), so a cycle visits only the sub-cores due in it.  A bit may be
	 * stale (its sub-core's wake-up moved): sc_wake decides.  Wake-ups
	 * beyond the wheel wait in `far` until they come within it. */
	uint64_t *wheel;        /* gwords x IW_WHEEL: word j of every slot, then word j + 1 */
	uint64_t *wsum;         /* IW_WHEEL bits: slots with any bit set */
	uint64_t *far;          /* gwords */
	uint64_t far_min;       /* no far wake-up is earlier */
	struct iw_subcore **scs; /* each sub-core by its index */
	uint32_t gwords;        /* 64-bit words of a sub-core bitmap */
	struct iw_chunk *arena; /* the model's state (sim.c) */
	uint32_t window;        /* slots per warp */
	uint32_t maddr_cap;     /* address entries a warp may hold (min(window, IW_MADDR_PER_WARP_MAX)) */
	uint32_t lane_mask;     /* the warp_size lanes of a warp */
	int wb_width;           /* results written back per cycle per sub-core */
	struct iw_wb_event *wb_held; /* with ops->wb_results_only: the results a write-back stage holds back */
	int through;            /* fetch continues past taken control */
	int cache_cand;         /* keep each warp's candidate until its next event */
	int gto_single;         /* GTO, one issue per cycle: the issue stage's folded copy */
	/* The shared collect stage keeps operand counts per bank (iw_cu.nbank):
	 * at most 8 banks, and read ports (rf_read_ports) at least one per bank */
	int collect_packed;
	/* a slot keeps its RF source list (src_rf, nsrc_rf, srcs_left): for a
	 * scheme's own collect stage (LOOG renames sources in its issue hook)
	 * or the unpacked one; otherwise the issue stage keeps it in the CU */
	int slot_operands;
	uint32_t bank_nib[256];  /* ... with it: 1 in the lane of register r's bank for warp 0 (r mod banks) */
	uint32_t warps_per_sc;
	uint32_t nsubcores;      /* cfg->subcores */
	uint64_t now;
	uint64_t warp_age;
	/* current kernel */
	struct iw_kernel_info kernel;
	int kernel_open, kernel_ctas_left, no_more_kernels;
	uint32_t cta_threads, cta_warps, cta_regs, cta_shmem;
	uint64_t live_ctas;
	uint32_t *refill;       /* SMs to refill at the end of this cycle, in SM order */
	uint32_t nrefill;
	/* SM-major order (sim.c run_sm_major) */
	int sm_major;
	uint64_t span;          /* cycles an SM runs before the next one */
	uint64_t span_end;      /* the current span's end (exclusive) */
	uint8_t *sm_state;      /* per SM: running, stopped to claim a refill, parked */
	uint64_t *sm_at;        /* ... at this cycle */
	/* time series */
	uint64_t sample_end;
	uint64_t *cur_act;      /* IW_A_COUNT */
	uint64_t cur_insts, sample_start;
	iw_event_fn on_event;
	void *event_ctx;
	int failed;
	int mem_oom;            /* the memory model could not queue an access (out of memory) */
	uint8_t hist_small[64]; /* iw_hist_bin of 0..63 */
};

/* Helpers for schemes. */
static inline void iw_count(struct iw_sim *s, enum iw_act a, uint64_t n) { s->cur_act[a] += n; }
void iw_sim_event_emit(struct iw_sim *s, struct iw_warp *w, struct iw_slot *sl, enum iw_event_kind k,
		       uint8_t sub);
/* Report an event to the run's observer; inline so that a run without one
 * (every sweep and benchmark) pays a single test per event. */
static inline void iw_sim_event(struct iw_sim *s, struct iw_warp *w, struct iw_slot *sl, enum iw_event_kind k,
				uint8_t sub)
{
	if (s->on_event)
		iw_sim_event_emit(s, w, sl, k, sub);
}
/* Population count without a libgcc call: the shipped build targets plain
 * x86-64 (no POPCNT instruction), where __builtin_popcount is a function call. */
static inline uint32_t iw_popcount32(uint32_t x)
{
	x = x - ((x >> 1) & 0x55555555u);
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	x = (x + (x >> 4)) & 0x0f0f0f0fu;
	return (x * 0x01010101u) >> 24;
}
/* Memory for a scheme's state that lives as long as the simulation: zeroed,
 * cache-line aligned and on the model's large pages (a GPU's per-warp state
 * spans tens of MiB: on 4 KiB pages nearly every access misses the TLB).
 * Freed with the simulation, never one by one; NULL when out of memory. */
void *iw_sim_alloc(struct iw_sim *s, size_t n, size_t size);
/* Does a unit of class u accept a warp at `now`? (iw_sim_unit_free >= 0) */
static inline int iw_sim_unit_ready(const struct iw_subcore *sc, int u, uint64_t now)
{
	return sc->fu_min[u] <= now;
}
/* First unit of class u free at `now`, or -1. */
static inline int iw_sim_unit_free(const struct iw_subcore *sc, int u, uint64_t now)
{
	if (!iw_sim_unit_ready(sc, u, now))
		return -1;
	for (int i = 0;; i++)
		if (sc->fu_free[u][i] <= now)
			return i;
}
/* Send s to unit `unit` of its class: occupies it for ii cycles and schedules
 * write-back after the latency (memory latency from the memory model). */
void iw_sim_dispatch(struct iw_subcore *sc, struct iw_warp *w, struct iw_slot *s, int unit,
		     uint64_t now);
/* The baseline's scoreboard (SCHEMES.md section 2), kept by every scheme
 * that does not rename: a pending-write bit per register (RAW, WAW) and,
 * with war_scoreboard, the number of in-flight readers per register (WAR). */
struct iw_scoreboard {
	uint64_t pending[4]; /* R0..R254 */
	uint8_t readers[256];
};
static inline int iw_sb_pending(const struct iw_scoreboard *b, uint16_t r)
{
	return (int)(b->pending[r >> 6] >> (r & 63) & 1);
}
/* A source still waits for its producer (RAW). */
static inline int iw_sb_raw(const struct iw_scoreboard *b, const struct iw_inst *in)
{
	for (int i = 0; i < in->nsrc; i++)
		if (iw_sb_pending(b, in->src[i]))
			return 1;
	return 0;
}
/* A destination is still written (WAW) or, with `war`, still read (WAR). */
static inline int iw_sb_war_waw(const struct iw_scoreboard *b, const struct iw_inst *in, int war)
{
	for (int i = 0; i < in->ndst; i++)
		if (iw_sb_pending(b, in->dst[i]) || (war && b->readers[in->dst[i]]))
			return 1;
	return 0;
}
/* At issue: reserve the destinations (and mark the sources with `war`). */
static inline void iw_sb_reserve(struct iw_sim *s, struct iw_scoreboard *b, const struct iw_inst *in, int war)
{
	for (int i = 0; i < in->ndst; i++)
		b->pending[in->dst[i] >> 6] |= 1ull << (in->dst[i] & 63);
	iw_count(s, IW_A_SB_SET, in->ndst);
	if (war) {
		for (int i = 0; i < in->nsrc; i++)
			b->readers[in->src[i]]++;
		iw_count(s, IW_A_SB_WAR_SET, in->nsrc);
	}
}
/* At write-back: release what iw_sb_reserve took. */
static inline void iw_sb_release(struct iw_sim *s, struct iw_scoreboard *b, const struct iw_inst *in, int war)
{
	for (int i = 0; i < in->ndst; i++)
		b->pending[in->dst[i] >> 6] &= ~(1ull << (in->dst[i] & 63));
	iw_count(s, IW_A_SB_CLEAR, in->ndst);
	if (war) {
		for (int i = 0; i < in->nsrc; i++)
			b->readers[in->src[i]]--;
		iw_count(s, IW_A_SB_WAR_CLEAR, in->nsrc);
	}
}

/* Instruction classes the schemes' dependence rules share (SCHEMES.md 3-6). */
static inline int iw_is_mem(const struct iw_inst *in) { return in->unit == IW_UNIT_MEM && !(in->flags & IW_F_MEMBAR); }
static inline int iw_is_plain_load(const struct iw_inst *in)
{
	return (in->flags & IW_F_LOAD) && !(in->flags & (IW_F_STORE | IW_F_ATOMIC));
}
static inline int iw_is_ctrl(const struct iw_inst *in) { return (in->flags & (IW_F_CONTROL | IW_F_RETURN)) != 0; }
static inline int iw_is_sync(const struct iw_inst *in) { return (in->flags & (IW_F_BARRIER | IW_F_MEMBAR)) != 0; }
/* Delivers a result: writes a register or a predicate. */
static inline int iw_has_result(const struct iw_inst *in) { return in->ndst || (in->flags & IW_F_SETS_PRED); }
/* Do two register lists share a register? */
static inline int iw_regs_meet(const uint16_t *a, int na, const uint16_t *b, int nb)
{
	for (int i = 0; i < na; i++)
		for (int j = 0; j < nb; j++)
			if (a[i] == b[j])
				return 1;
	return 0;
}

/* Register-file bank of register r of warp w. */
static inline uint32_t iw_sim_bank(const struct iw_config *c, uint32_t w, uint32_t r)
{
	uint32_t b = (uint32_t)c->rf_banks;
	return b & (b - 1) ? (r + w) % b : (r + w) & (b - 1); /* banks are usually a power of two */
}
/* Something changed warp w's scheme state outside its own events (a tick):
 * ask its candidate and retry its decode again. */
void iw_sim_unblock(struct iw_sm *sm, struct iw_warp *w);
/* With insert_keeps_candidate: this insert changed warp w's candidate or
 * its stall reason, ask it again (what the engine does after other inserts;
 * a warp that waited for a unit may now offer one whose unit is free). */
static inline void iw_sim_cand_changed(struct iw_sm *sm, const struct iw_warp *w)
{
	struct iw_subcore *sc = &sm->sc[w->subcore];
	uint64_t keep = ~(1ull << w->local);
	sc->blocked_mask &= keep;
	sc->cand_mask &= keep;
	sc->stalled_mask &= keep;
}
/* candidate() of a scheme whose offers depend on which units are free
 * (cand_stable 0) passed over ready instructions of warp w because every
 * unit of these classes (bits per enum iw_unit) is busy: a sleeping sub-core
 * wakes when one of them frees, as for the class of an offer that waits. */
static inline void iw_sim_wait_units(struct iw_sm *sm, const struct iw_warp *w, uint32_t classes)
{
	sm->sc[w->subcore].fu_wait |= (uint8_t)classes;
}
/* With IW_INSERT_UNTIL_ROOM: warp w's buffer has room again, retry its
 * decode (a refusal or IW_INSERT_FULL held it back until now). */
static inline void iw_sim_insert_room(struct iw_sm *sm, const struct iw_warp *w)
{
	struct iw_subcore *sc = &sm->sc[w->subcore];
	uint64_t keep = ~(1ull << w->local);
	sc->noinsert_mask &= keep;
	sc->ibfull_mask &= keep;
}
/* Free collector unit i (its allocation period is counted); for schemes
 * that replace the collect stage and hold CUs past dispatch (LOOG). */
void iw_sim_cu_free(struct iw_subcore *sc, uint32_t i, uint64_t now);
/* Record that s issues ahead of older unissued instructions of its warp. */
void iw_sim_count_reorder(struct iw_sim *s, struct iw_warp *w, struct iw_slot *sl);
/* Histogram bin of a period in cycles (log-spaced, IW_HIST_BINS); inline:
 * every collector-unit release counts one. */
static inline uint32_t iw_hist_bin(uint64_t cycles)
{
	/* Four bins per octave: bin b covers [2^(b/4), 2^((b+1)/4)). */
	if (cycles <= 1)
		return 0;
	uint32_t msb = 63u - (uint32_t)__builtin_clzll(cycles);
	/* cycles / 2^msb in [1, 2) against 2^(1/4), 2^(2/4), 2^(3/4); scaling the
	 * thresholds by the power of two instead is exact and needs no division */
	double f = (double)cycles, p = (double)(1ull << msb);
	uint32_t b = 4 * msb + (f >= 1.189207115002721 * p) + (f >= 1.4142135623730951 * p) + (f >= 1.681792830507429 * p);
	return b < IW_HIST_BINS ? b : IW_HIST_BINS - 1;
}

#endif
