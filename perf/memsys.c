/*
 * perf/memsys.c -- the memory model of SCHEMES.md section 1 (interval-style,
 * not cycle-accurate); interface in perf/memsys.h.
 *
 * Global/local: lane addresses coalesce into 32-byte sectors (the unit every
 * NVIDIA cache level since Maxwell tags and moves).  Each sector looks up
 * the SM's L1 (set-associative, LRU, lines of l1_line bytes holding
 * l1_line/32 sectors, sector-valid bits as in Volta's sectored L1), then the
 * shared L2 (same organisation, 128-byte lines, write-back with per-sector
 * dirty bits), then DRAM.  Loads allocate in L1 and L2; stores write through
 * L1 without allocating (Volta/Ampere global stores) and allocate in L2
 * without a DRAM read when they write the whole sector (a sector written in
 * part is read from DRAM when a load needs it); atomics and reductions are
 * performed at L2, reading the sector from DRAM on a miss.  A dirty L2 sector written back on eviction is one more
 * DRAM transfer.
 *
 * Misses in flight: a sector allocated by a miss is valid at once but
 * remembers when its fill arrives (per sector, read only while pending).  A
 * request for it before then merges into the outstanding miss, as
 * GPGPU-Sim's MSHR merge (HIT_RESERVED): no new request goes down, and the
 * data comes back with the fill.  It is counted as a hit: it costs the
 * level's access and nothing below (hits + misses = accesses).  An access's
 * sectors all arrive when the access completes (interval-style).  In
 * deferred mode an L1 fill's arrival is known only when the flush serves its
 * access; a load merging into it is queued behind it.
 *
 * Bandwidth and queueing: each level is a deterministic server of
 * `*_sectors_per_cycle` sectors per cycle (L1 and shared memory per SM, L2
 * and DRAM for the whole GPU).  A request of n sectors arriving at t starts
 * when the server is free (kept in sector-slot units, so at several sectors
 * per cycle, DRAM's 18 on v100, requests share a cycle's slots instead of
 * each taking whole cycles) and ends n slots later; the cycles it
 * spends beyond one are its queueing + serialisation delay.  The latency of
 * a load is that of the deepest level any of its sectors reached plus the
 * delays of each level on the way (L1 -> L2 -> DRAM), so an uncoalesced
 * access pays for its 32 sectors and a busy DRAM slows every miss.
 *
 * Shared memory: fixed latency plus one cycle per extra wavefront from bank
 * conflicts (banks of 4 bytes; lanes reading the same word broadcast) or
 * from a width beyond one wavefront (counted apart: shmem.wavefront).
 * Constant and texture: fixed latencies.  Without lane addresses (built-in
 * workloads): shared memory as contiguous lanes; global: the generator's level (inst->mem_level) with the same servers,
 * assuming a coalesced access (ceil(active lanes x width / 32) sectors); a
 * store drawn at DRAM is one written back (l2_level).
 *
 * Nothing is allocated per access: the caches are flat arrays sized once.
 */
#include "memsys.h"

#include <stdlib.h>
#include <string.h>

#define SECTOR 32u
#define L2_LINE 128u /* Volta/Ampere/Hopper L2 line: four 32-byte sectors */
#define MAX_SECT (32u * 3u) /* a warp access of 32 lanes x up to 64 B can span 96 sectors */
#define DEFER_CYCLES 256u /* queued cycles sorted by counting (a span is at most IW_SPAN = 256) */

/* One way of a set: everything a hit updates sits in one small record, so
 * a hit touches the set's tag line and one metadata line (tags stay apart and
 * dense: the lookup scans them, and a 16-way L2 set's tags fill two lines).
 * Only a sector whose fill is still in flight (`pend`) reads its ready time
 * (struct cache's `ready`), so ordinary hits touch nothing more. */
struct way_meta {
	uint64_t lru;    /* last-use stamp */
	uint32_t valid;  /* sector-valid bits */
	uint32_t dirty;  /* sector-dirty bits (L2) */
	uint32_t pend;   /* valid sectors whose fill has not arrived yet (an MSHR entry) */
	uint32_t part;   /* valid sectors written only in part by stores, never filled (L2) */
};

/* A ready time that is not known yet (deferred mode): the fill is that of the
 * queued access with this order (struct mem_defer), resolved by the flush. */
#define READY_QUEUED (1ull << 63)

/* In a store's sector list: a sector it writes only in part (sector numbers
 * are addresses / 32, so the top bit is free). */
#define PART_WRITE (1ull << 63)

struct cache {
	uint32_t sets, assoc, line_sectors, line_shift;
	uint32_t set_mask; /* sets - 1 when sets is a power of two (no division), else 0 */
	uint64_t *tag;     /* sets x assoc line numbers (UINT64_MAX = invalid), set-major */
	struct way_meta *meta; /* sets x assoc, same order */
	uint64_t *ready;   /* per sector (sets x assoc x line_sectors): when a pending fill arrives */
	uint64_t stamp;
};

/* A server of `rate` sectors per cycle; `next` is the first free slot. */
struct server {
	uint64_t rate, next;
};

/* The shared part (L2, DRAM) of one access, queued in deferred mode. */
struct mem_defer {
	uint64_t now;    /* dispatch cycle */
	uint64_t cookie; /* the caller's tag (IW_MEM_NO_COOKIE: nobody waits for it) */
	uint64_t d1;     /* the L1 part's delay */
	uint64_t floor;  /* the latency at least (L1 hits, fills in flight whose arrival is known) */
	uint32_t sm, order;
	uint32_t n, sec; /* sectors (or the coalesced count, with level) and the first in dsec */
	uint32_t nwait;  /* queued accesses (their orders, in dsec after the sectors) whose fills it waits for */
	uint8_t level;   /* 0: the sectors in dsec; 2, 3: the level drawn without addresses */
	uint8_t store, atomic;
};

struct iw_memsys {
	struct iw_config cfg;
	uint32_t nsm;
	struct cache *l1; /* per SM, NULL when l1_kb = 0 */
	struct cache l2;
	int has_l2;
	struct server *l1bw, *shbw, l2bw, drambw;
	/* deferred mode (iw_memsys_defer): the queued shared parts */
	int deferring;
	struct mem_defer *defer;
	uint64_t *dsec;           /* their sectors */
	uint32_t *didx;           /* the serving order (capdefer entries) */
	uint64_t *ddone;          /* by order: the cycle a served access's data is back at its SM */
	uint32_t ndefer, capdefer, ndsec, capdsec;
};

/* Population count without a libgcc call (the shipped build targets plain
 * x86-64, where __builtin_popcount is a function call). */
static inline uint32_t popcount32(uint32_t x)
{
	x = x - ((x >> 1) & 0x55555555u);
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	x = (x + (x >> 4)) & 0x0f0f0f0fu;
	return (x * 0x01010101u) >> 24;
}

static int log2u(uint32_t x)
{
	int s = 0;
	while ((1u << s) < x)
		s++;
	return s;
}

static int cache_init(struct cache *c, uint64_t bytes, uint32_t assoc, uint32_t line)
{
	memset(c, 0, sizeof *c);
	uint64_t lines = bytes / line;
	if (assoc == 0 || lines < assoc)
		return 0;
	c->sets = (uint32_t)(lines / assoc);
	c->set_mask = (c->sets & (c->sets - 1)) == 0 ? c->sets - 1 : 0;
	c->assoc = assoc;
	c->line_sectors = line / SECTOR;
	c->line_shift = (uint32_t)log2u(line);
	size_t n = (size_t)c->sets * assoc;
	c->tag = iw_malloc(n * sizeof *c->tag);
	c->meta = iw_calloc(n, sizeof *c->meta);
	c->ready = iw_calloc(n * c->line_sectors, sizeof *c->ready);
	if (!c->tag || !c->meta || !c->ready)
		return -1;
	memset(c->tag, 0xff, n * sizeof *c->tag);
	return 0;
}

static void cache_free(struct cache *c)
{
	iw_free(c->tag);
	iw_free(c->meta);
	iw_free(c->ready);
}

enum { LOOK_HIT, LOOK_MISS, LOOK_RESERVED };

/* The first way of a line's set. */
static inline size_t cache_set(const struct cache *c, uint64_t line)
{
	/* set index hashed with upper bits so power-of-two strides do not all
	 * land in one set (as GPU caches do since Fermi); a mask instead of a
	 * division when the set count allows (the same index either way) */
	uint64_t h = line ^ (line >> 13) ^ (line >> 27);
	uint32_t set = c->set_mask ? (uint32_t)(h & c->set_mask) : (uint32_t)(h % c->sets);
	return (size_t)set * c->assoc;
}

/* Look up one sector at cycle `now`; on a miss with `alloc`, make it valid
 * (evicting the set's least recently used line if the line is absent), and
 * with `fill` pending: its data comes from below, and the caller stores when
 * it arrives in **rdy.  A valid sector whose fill has not arrived by `now`
 * answers LOOK_RESERVED with **rdy its arrival (GPGPU-Sim's HIT_RESERVED:
 * the request merges into the outstanding miss, no new request goes down).
 * `part`: a store writing only some of the sector's bytes.  GPGPU-Sim's L2
 * keeps a byte mask per sector; here one bit says the sector holds only
 * what stores wrote, so a read of it (a fill) misses and fetches the rest,
 * whichever bytes it reads (a read of only written bytes fetches too: the
 * simplification), and a whole-sector store completes it.
 * *wb receives the number of dirty sectors the eviction writes back. */
static int cache_access(struct cache *c, uint64_t sector, uint64_t now, int alloc, int fill, int make_dirty,
			int part, uint32_t *wb, uint64_t **rdy)
{
	uint64_t line = sector >> (c->line_shift - 5);
	uint32_t bit = 1u << (sector & (c->line_sectors - 1));
	size_t b = cache_set(c, line);
	const uint64_t *tag = c->tag + b;
	struct way_meta *meta = c->meta + b;
	c->stamp++;
	*wb = 0;
	uint32_t si = (uint32_t)(sector & (c->line_sectors - 1));
	for (uint32_t w = 0; w < c->assoc; w++)
		if (tag[w] == line) {
			struct way_meta *m = &meta[w];
			m->lru = c->stamp;
			int hit = (m->valid & bit) != 0;
			if (hit && fill && (m->part & bit)) {
				m->part &= ~bit; /* the fill brings the bytes no store wrote */
				hit = 0;
			} else if (hit && !fill && !part) {
				m->part &= ~bit;
			}
			if (!hit && alloc) {
				m->valid |= bit;
				if (fill) {
					m->pend |= bit;
					*rdy = &c->ready[(b + w) * c->line_sectors + si];
				} else if (part) {
					m->part |= bit;
				}
			}
			if (make_dirty && (hit || alloc))
				m->dirty |= bit;
			if (hit && (m->pend & bit)) {
				uint64_t *r = &c->ready[(b + w) * c->line_sectors + si];
				if (*r > now) { /* READY_QUEUED is later than any cycle */
					*rdy = r;
					return LOOK_RESERVED;
				}
				m->pend &= ~bit; /* arrived: an ordinary hit from now on */
			}
			return hit ? LOOK_HIT : LOOK_MISS;
		}
	if (!alloc)
		return LOOK_MISS;
	uint32_t victim = 0;
	for (uint32_t w = 1; w < c->assoc; w++)
		if (meta[w].lru < meta[victim].lru)
			victim = w;
	*wb = popcount32(meta[victim].dirty);
	c->tag[b + victim] = line;
	meta[victim].lru = c->stamp;
	meta[victim].valid = bit;
	meta[victim].dirty = make_dirty ? bit : 0;
	meta[victim].pend = fill ? bit : 0;
	meta[victim].part = !fill && part ? bit : 0;
	if (fill)
		*rdy = &c->ready[(b + victim) * c->line_sectors + si];
	return LOOK_MISS;
}

/* The ready time of a sector whose fill is pending, without touching the
 * cache's state (NULL: absent or not pending). */
static uint64_t *cache_pending(struct cache *c, uint64_t sector)
{
	uint64_t line = sector >> (c->line_shift - 5);
	uint32_t bit = 1u << (sector & (c->line_sectors - 1));
	size_t b = cache_set(c, line);
	for (uint32_t w = 0; w < c->assoc; w++)
		if (c->tag[b + w] == line)
			return c->meta[b + w].pend & bit
				       ? &c->ready[(b + w) * c->line_sectors + (sector & (c->line_sectors - 1))]
				       : NULL;
	return NULL;
}

/* Serve n sectors arriving at t; returns the cycles beyond the first. */
static uint64_t serve(struct server *s, uint64_t t, uint64_t n)
{
	if (!n)
		return 0;
	uint64_t start = t * s->rate;
	if (s->next > start)
		start = s->next;
	s->next = start + n;
	uint64_t finish = (s->next + s->rate - 1) / s->rate; /* first cycle after the last slot */
	return finish - t - 1;
}

int iw_memsys_new(const struct iw_config *c, struct iw_memsys **out, struct iw_err *e)
{
	*out = NULL;
	struct iw_memsys *m = iw_calloc(1, sizeof *m);
	if (!m)
		return iw_fail(e, IW_ERUN, "out of memory");
	m->cfg = *c;
	m->nsm = c->sms > 0 ? (uint32_t)c->sms : 1;
	m->l1bw = iw_calloc(m->nsm, sizeof *m->l1bw);
	m->shbw = iw_calloc(m->nsm, sizeof *m->shbw);
	if (!m->l1bw || !m->shbw)
		goto oom;
	for (uint32_t i = 0; i < m->nsm; i++) {
		m->l1bw[i].rate = (uint64_t)IW_MAX(c->l1_sectors_per_cycle, 1);
		/* one shared-memory wavefront per cycle: a whole conflict-free warp access */
		m->shbw[i].rate = 1;
	}
	m->l2bw.rate = (uint64_t)IW_MAX(c->l2_sectors_per_cycle, 1);
	m->drambw.rate = (uint64_t)IW_MAX(c->dram_sectors_per_cycle, 1);
	uint32_t l1line = (uint32_t)IW_MAX(c->l1_line, (int)SECTOR);
	if (l1line & (l1line - 1) || l1line > 1024)
		l1line = 128; /* the configuration table checks this; stay safe */
	if (c->l1_kb > 0) {
		m->l1 = iw_calloc(m->nsm, sizeof *m->l1);
		if (!m->l1)
			goto oom;
		for (uint32_t i = 0; i < m->nsm; i++)
			if (cache_init(&m->l1[i], (uint64_t)c->l1_kb * 1024, (uint32_t)c->l1_assoc, l1line))
				goto oom;
		if (!m->l1[0].sets) { /* smaller than one set: no L1 */
			for (uint32_t i = 0; i < m->nsm; i++)
				cache_free(&m->l1[i]);
			iw_free(m->l1);
			m->l1 = NULL;
		}
	}
	if (c->l2_kb > 0) {
		if (cache_init(&m->l2, (uint64_t)c->l2_kb * 1024, (uint32_t)c->l2_assoc, L2_LINE))
			goto oom;
		m->has_l2 = m->l2.sets > 0;
	}
	*out = m;
	return 0;
oom:
	iw_memsys_free(m);
	return iw_fail(e, IW_ERUN, "out of memory");
}

void iw_memsys_free(struct iw_memsys *m)
{
	if (!m)
		return;
	if (m->l1) {
		for (uint32_t i = 0; i < m->nsm; i++)
			cache_free(&m->l1[i]);
		iw_free(m->l1);
	}
	cache_free(&m->l2);
	iw_free(m->l1bw);
	iw_free(m->shbw);
	iw_free(m->defer);
	iw_free(m->dsec);
	iw_free(m->didx);
	iw_free(m->ddone);
	iw_free(m);
}

/* Lane l's address.  With `st` (the entry's strided flag, trusted only on
 * the engine's path) it is computed from lane 0's (iw_mem_lane), exactly as
 * the trace reader wrote it, so only the entry's first cache line is read. */
static inline uint64_t lane(const struct iw_mem_addrs *ma, uint32_t l, int st)
{
	return st ? iw_mem_lane(ma, l) : ma->addr[l];
}

/* With `st`, lanes 0..nl-1 at a stride of 1 to `most` bytes whose bytes end
 * below 2^64: 1, with the first byte they touch in *a and the last in *z
 * (most <= SECTOR: every sector between is touched too; most <= width:
 * every byte).  Else 0.  The closed forms it serves (coalesce, mark_partial)
 * cut an inorder run of the matrixmul block x120 from 2,559 to 2,516 host
 * instructions per warp-instruction (callgrind): a store's partial sectors
 * were a binary search per lane. */
static inline int strided_bytes(const struct iw_mem_addrs *ma, uint32_t width, uint32_t nl, int st, uint32_t most,
				uint64_t *a, uint64_t *z)
{
	if (!st || ma->stride <= 0 || (uint32_t)ma->stride > most || !nl)
		return 0;
	uint64_t span = (uint64_t)(nl - 1) * (uint32_t)ma->stride + width - 1;
	if (ma->addr[0] > UINT64_MAX - span)
		return 0; /* a lane wraps past 2^64: the general method */
	*a = ma->addr[0];
	*z = ma->addr[0] + span;
	return 1;
}

/* The general method: insertion into a sorted, duplicate-free list, keeping
 * the first `cap` distinct sectors met in lane order. */
static uint32_t coalesce_sorted_insert(const struct iw_mem_addrs *ma, uint32_t width, uint64_t *sectors,
				       uint32_t cap, int st)
{
	uint32_t n = 0;
	for (uint32_t l = 0; l < ma->n && l < 32; l++) {
		uint64_t a = lane(ma, l, st);
		uint64_t first = a / SECTOR, last = (a + width - 1) / SECTOR;
		for (uint64_t s = first; s <= last; s++) {
			uint32_t i = n;
			while (i > 0 && sectors[i - 1] > s)
				i--;
			if (i > 0 && sectors[i - 1] == s)
				continue;
			if (n == cap)
				return n;
			memmove(sectors + i + 1, sectors + i, (n - i) * sizeof *sectors);
			sectors[i] = s;
			n++;
		}
	}
	return n;
}

/* A warp's sectors almost always lie within a few KiB: within this many
 * sectors of the lowest one, a bitmap sorts and de-duplicates them in one
 * pass over the lanes and one over the bitmap's words. */
#define COALESCE_SPAN 512u

static inline uint32_t coalesce(const struct iw_mem_addrs *ma, uint32_t width, uint64_t *sectors, uint32_t cap,
				int st)
{
	if (!ma || !cap)
		return 0;
	if (!width)
		width = 1;
	uint32_t nl = IW_MIN((uint32_t)ma->n, 32u);
	if (st && !ma->stride)
		nl = IW_MIN(nl, 1u); /* every lane on lane 0's bytes: they add no sector */
	/* Lanes at a known stride of 1 to 32 bytes (most global accesses of a
	 * trace): each lane starts at most one sector after the previous one,
	 * so the sectors are every one from lane 0's first to the last lane's
	 * last -- the list the loop below makes, without its 32 lanes. */
	uint64_t a0, z0;
	if (strided_bytes(ma, width, nl, st, SECTOR, &a0, &z0) && z0 / SECTOR - a0 / SECTOR < cap) {
		uint32_t n = 0;
		for (uint64_t s = a0 / SECTOR; s <= z0 / SECTOR; s++)
			sectors[n++] = s;
		return n;
	}
	/* Lanes in ascending address order (the tracer's mode 1 with a stride
	 * >= 0, most global accesses): each lane's sectors follow the previous
	 * lane's, so emitting those not yet emitted gives the sorted, distinct
	 * list in one pass.  Abandoned at the first lane below its predecessor. */
	{
		uint32_t n = 0, l;
		uint64_t next = 0, prev = 0;
		for (l = 0; l < nl; l++) {
			uint64_t a = lane(ma, l, st), z = a + width - 1;
			if (a < prev)
				break;
			prev = a;
			if (z < a) /* wraps past 2^64: no sectors (so do all later lanes) */
				continue;
			uint64_t s = a / SECTOR, e = z / SECTOR;
			if (n && s < next)
				s = next;
			for (; s <= e; s++) {
				if (n == cap)
					return coalesce_sorted_insert(ma, width, sectors, cap, st);
				sectors[n++] = s;
			}
			next = e + 1;
		}
		if (l == nl)
			return n;
	}
	/* pass 1: the span of the sectors touched (a lane whose last byte
	 * wraps past 2^64 touches none, as in the general method) */
	uint64_t lo = UINT64_MAX, hi = 0;
	for (uint32_t l = 0; l < nl; l++) {
		uint64_t a = lane(ma, l, st), z = a + width - 1;
		if (z < a)
			continue;
		lo = IW_MIN(lo, a / SECTOR);
		hi = IW_MAX(hi, z / SECTOR);
	}
	if (lo > hi)
		return 0;
	if (hi - lo >= COALESCE_SPAN)
		return coalesce_sorted_insert(ma, width, sectors, cap, st);
	/* pass 2: one bit per sector relative to lo */
	uint64_t bits[COALESCE_SPAN / 64];
	uint32_t nwords = (uint32_t)((hi - lo) / 64) + 1;
	memset(bits, 0, nwords * sizeof bits[0]);
	for (uint32_t l = 0; l < nl; l++) {
		uint64_t a = lane(ma, l, st), z = a + width - 1;
		if (z < a)
			continue;
		for (uint64_t s = a / SECTOR - lo, e = z / SECTOR - lo; s <= e; s++)
			bits[s / 64] |= 1ull << (s % 64);
	}
	/* pass 3: the set bits in order are the sorted, distinct sectors */
	uint32_t n = 0;
	for (uint32_t i = 0; i < nwords; i++)
		for (uint64_t m = bits[i]; m; m &= m - 1) {
			if (n == cap) /* more than cap: which ones are kept depends on lane order */
				return coalesce_sorted_insert(ma, width, sectors, cap, st);
			sectors[n++] = lo + (uint64_t)i * 64 + (uint64_t)__builtin_ctzll(m);
		}
	return n;
}

/* Mark the sectors (sorted, distinct, from coalesce) a store's lanes do not
 * write whole with PART_WRITE. */
static void mark_partial(const struct iw_mem_addrs *ma, uint32_t width, uint64_t *sec, uint32_t n, int st)
{
	/* Lanes at a known stride no larger than their width write every byte
	 * from lane 0's first to the last lane's last, and coalesce listed
	 * every sector between: only the first and the last can be partial. */
	uint64_t a0, z0;
	if (strided_bytes(ma, width, IW_MIN((uint32_t)ma->n, 32u), st, width, &a0, &z0) && sec[0] == a0 / SECTOR &&
	    sec[n - 1] == z0 / SECTOR && z0 / SECTOR - a0 / SECTOR + 1 == n) {
		if (a0 % SECTOR)
			sec[0] |= PART_WRITE;
		if (z0 % SECTOR != SECTOR - 1)
			sec[n - 1] |= PART_WRITE;
		return;
	}
	uint32_t bytes[MAX_SECT]; /* per sector, the bytes written */
	memset(bytes, 0, n * sizeof *bytes);
	for (uint32_t l = 0; l < ma->n && l < 32; l++) {
		uint64_t a = lane(ma, l, st), z = a + width - 1;
		if (z < a)
			continue;
		for (uint64_t s = a / SECTOR; s <= z / SECTOR; s++) {
			uint32_t lo = 0, hi = n; /* binary search: sec is sorted */
			while (lo < hi) {
				uint32_t mid = (lo + hi) / 2;
				if (sec[mid] < s)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo == n || sec[lo] != s)
				continue; /* beyond the sectors kept */
			uint32_t from = s * SECTOR > a ? 0 : (uint32_t)(a - s * SECTOR);
			uint32_t to = z / SECTOR > s ? SECTOR - 1 : (uint32_t)(z - s * SECTOR);
			bytes[lo] |= (to == 31 ? ~0u : (1u << (to + 1)) - 1) & ~((1u << from) - 1);
		}
	}
	for (uint32_t i = 0; i < n; i++)
		if (bytes[i] != ~0u)
			sec[i] |= PART_WRITE;
}

uint32_t iw_coalesce(const struct iw_mem_addrs *ma, uint32_t width, uint64_t *sectors, uint32_t cap)
{
	return coalesce(ma, width, sectors, cap, 0);
}

/* Distinct words per shared-memory bank, for iw_shmem_conflicts.  A bit per
 * bank says whether it has a word yet and each bank remembers its first one,
 * so the common accesses (conflict-free, broadcast) cost a few operations per
 * lane; only a second, different word in a bank searches that bank's chain
 * of further words (kept, like its count, only for such banks). */
struct shm_banks {
	uint64_t used, multi;  /* banks with a word; banks with more than one */
	uint32_t worst, nx;
	uint64_t first[64];
	uint32_t cnt[64];      /* valid for banks in multi */
	uint8_t head[64];      /* chain through extra[] (0xff ends it), banks in multi */
	uint8_t next[32 * 4];
	uint64_t extra[32 * 4];
};

static inline void shm_word(struct shm_banks *k, uint64_t w, uint32_t b)
{
	uint64_t bit = 1ull << b;
	if (!(k->used & bit)) {
		k->used |= bit;
		k->first[b] = w;
		return;
	}
	if (k->first[b] == w)
		return; /* broadcast */
	if (!(k->multi & bit)) {
		k->multi |= bit;
		k->cnt[b] = 1;
		k->head[b] = 0xff;
	}
	uint32_t i = k->head[b];
	while (i != 0xff && k->extra[i] != w)
		i = k->next[i];
	if (i != 0xff)
		return;
	k->extra[k->nx] = w;
	k->next[k->nx] = k->head[b];
	k->head[b] = (uint8_t)k->nx++;
	if (++k->cnt[b] > k->worst)
		k->worst = k->cnt[b];
}

static inline uint32_t shmem_conflicts(const struct iw_mem_addrs *ma, uint32_t width, uint32_t banks, int st)
{
	/* Per bank, the distinct 4-byte words the lanes touch; the access takes
	 * as many wavefronts as the busiest bank has distinct words (same word =
	 * broadcast).  A 64-bit conflict-free access therefore takes 2.  A lane
	 * touches at most 4 words. */
	if (!ma || !ma->n || !banks)
		return 0;
	if (banks > 64)
		banks = 64;
	if (!width)
		width = 4;
	struct shm_banks k;
	k.used = k.multi = 0;
	k.worst = 1;
	k.nx = 0;
	uint32_t nl = IW_MIN((uint32_t)ma->n, 32u);
	if (st && !ma->stride)
		nl = 1; /* every lane on lane 0's address: the later ones add nothing */
	if ((banks & (banks - 1)) == 0 && width <= 4 && ma->addr[0] % 4 + width <= 4) {
		/* Lanes at a constant stride d (the tracer's address mode 1, most
		 * shared accesses): the answer in closed form.  Every lane then
		 * touches one word (same offset in its word as lane 0), d = 0 is a
		 * broadcast, and otherwise the words are distinct (|d| < 2^32, so no
		 * multiple of d below 32 lanes wraps to 0) and the banks
		 * b0 + l * d/4 cycle with period P = banks >> ctz(d/4 mod banks)
		 * (1 if that is 0): the busiest bank gets ceil(n / P) lanes. */
		uint64_t d = nl > 1 ? lane(ma, 1, st) - ma->addr[0] : 0;
		uint32_t l = st ? nl : 2; /* known constant: nothing to check */
		if (d % 4 == 0 && (d < (1ull << 32) || d > (uint64_t)0 - (1ull << 32)))
			for (; l < nl && ma->addr[l] - ma->addr[l - 1] == d; l++)
				;
		if (l >= nl && d % 4 == 0 && (d < (1ull << 32) || d > (uint64_t)0 - (1ull << 32))) {
			if (d == 0)
				return 0;
			uint32_t ds = (uint32_t)(d / 4) & (banks - 1);
			uint32_t period = ds ? banks >> __builtin_ctz(ds) : 1;
			return (nl + period - 1) / period - 1;
		}
	}
	/* A lane with the previous lane's address adds nothing (same words):
	 * broadcasts, frequent in tiled kernels, cost one comparison a lane. */
	if ((banks & (banks - 1)) == 0) { /* every GPU: the bank is the word's low bits */
		uint32_t bmask = banks - 1;
		for (uint32_t l = 0; l < nl; l++) {
			uint64_t a = lane(ma, l, st);
			if (l && a == lane(ma, l - 1, st))
				continue;
			uint64_t w0 = a / 4, w1 = (a + width - 1) / 4;
			if (w1 == w0) { /* the usual: one word */
				shm_word(&k, w0, (uint32_t)(w0 & bmask));
				continue;
			}
			for (uint64_t w = w0; w <= w1 && w < w0 + 4; w++)
				shm_word(&k, w, (uint32_t)(w & bmask));
		}
	} else {
		for (uint32_t l = 0; l < nl; l++) {
			uint64_t a = lane(ma, l, st);
			if (l && a == lane(ma, l - 1, st))
				continue;
			uint64_t w0 = a / 4, w1 = (a + width - 1) / 4;
			for (uint64_t w = w0; w <= w1 && w < w0 + 4; w++)
				shm_word(&k, w, (uint32_t)(w % banks));
		}
	}
	return k.worst - 1;
}

uint32_t iw_shmem_conflicts(const struct iw_mem_addrs *ma, uint32_t width, uint32_t banks)
{
	return shmem_conflicts(ma, width, banks, 0);
}

/* Global/local access of n coalesced sectors (n >= 1). */
/* The shared part of a global access: n sectors (in order) that left the SM
 * at t, through the L2 and DRAM servers.  Returns the latency beyond the L1
 * part's delay. */
static uint32_t l2_sectors(struct iw_memsys *m, const uint64_t *sec, uint32_t n, int store, int atomic, uint64_t t,
			   uint64_t *act)
{
	const struct iw_config *c = &m->cfg;
	uint32_t wb;
	act[IW_A_NOC_FLIT] += n;
	act[IW_A_L2_ACCESS] += n;
	uint64_t d2 = serve(&m->l2bw, t, n);
	uint32_t dram = 0, wbs = 0;
	/* A sector's ready time in L2 is the cycle from which it serves as a hit
	 * (l2_latency later the data is back at the SM): a request merging into
	 * a fill in flight waits until then. */
	uint64_t at = t + d2, wait = at;
	uint64_t *fill[MAX_SECT];
	if (m->has_l2) {
		uint32_t hits = 0;
		for (uint32_t i = 0; i < n; i++) {
			/* stores and atomics dirty the sector; a store miss allocates
			 * without reading DRAM (it writes the whole sector), while an
			 * atomic's, a reduction's too, reads it first (a
			 * read-modify-write at L2) */
			uint64_t *r = NULL;
			int reads = !store || atomic;
			int k = cache_access(&m->l2, sec[i] & ~PART_WRITE, at, 1, reads, store || atomic,
					     (sec[i] & PART_WRITE) != 0, &wb, &r);
			wbs += wb;
			hits += (uint32_t)(k != LOOK_MISS); /* a merge costs no lower-level access: a hit */
			if (k == LOOK_RESERVED && *r > wait)
				wait = *r;
			if (k == LOOK_MISS && reads)
				fill[dram++] = r;
		}
		act[IW_A_L2_HIT] += hits;
		act[IW_A_L2_MISS] += n - hits;
	} else {
		act[IW_A_L2_MISS] += n;
		dram = n;
	}
	act[IW_A_DRAM_ACCESS] += dram + wbs;
	uint64_t d3 = serve(&m->drambw, t + d2, dram + wbs);
	if (m->has_l2)
		for (uint32_t i = 0; i < dram; i++)
			*fill[i] = at + c->dram_latency + d3;
	if (store)
		return (uint32_t)((m->l1 ? c->l1_latency : c->l2_latency) + d2);
	uint64_t lat = c->l2_latency + d2 + (wait - at);
	if (dram && c->l2_latency + c->dram_latency + d2 + d3 > lat)
		lat = c->l2_latency + c->dram_latency + d2 + d3;
	return (uint32_t)lat;
}

/* The same for an access without addresses that reaches `level` (2 or 3). */
static uint32_t l2_level(struct iw_memsys *m, int level, uint32_t n, int store, uint64_t t, uint64_t *act)
{
	const struct iw_config *c = &m->cfg;
	act[IW_A_NOC_FLIT] += n;
	act[IW_A_L2_ACCESS] += n;
	if (level == 3)
		act[IW_A_L2_MISS] += n;
	else
		act[IW_A_L2_HIT] += n;
	uint64_t d2 = serve(&m->l2bw, t, n);
	if (store) {
		/* A store drawn at DRAM is one whose sector does not stay in L2:
		 * it allocates dirty without a read (the trace path's store miss)
		 * and is written back.  The trace path pays that transfer when the
		 * dirty sector is evicted, later; without addresses there is no
		 * eviction to wait for, so the store pays it now on the DRAM server
		 * (the same traffic, earlier), nobody waiting for it.  A store drawn
		 * at L1 or L2 stays in L2 (rewritten or still there at the end). */
		if (level == 3) {
			act[IW_A_DRAM_ACCESS] += n;
			serve(&m->drambw, t + d2, n);
		}
		return (uint32_t)((m->l1 ? c->l1_latency : c->l2_latency) + d2);
	}
	if (level < 3)
		return (uint32_t)(c->l2_latency + d2);
	act[IW_A_DRAM_ACCESS] += n;
	uint64_t d3 = serve(&m->drambw, t + d2, n);
	return (uint32_t)(c->l2_latency + c->dram_latency + d2 + d3);
}

/* Queue the shared part of an access (deferred mode): served by
 * iw_memsys_flush in (cycle, SM, order) order.  0, or -1 out of memory. */
static int defer_push(struct iw_memsys *m, uint32_t sm, uint64_t now, uint64_t d1, const uint64_t *sec, uint32_t n,
		      int level, int store, int atomic, uint64_t cookie, uint64_t floor, const uint32_t *waits,
		      uint32_t nwait)
{
	if (m->ndefer == m->capdefer) {
		uint32_t cap = m->capdefer ? 2 * m->capdefer : 256;
		struct mem_defer *d = iw_realloc(m->defer, cap * sizeof *d);
		if (!d)
			return -1;
		m->defer = d;
		uint32_t *x = iw_realloc(m->didx, cap * sizeof *x);
		if (!x)
			return -1;
		m->didx = x;
		uint64_t *y = iw_realloc(m->ddone, cap * sizeof *y);
		if (!y)
			return -1;
		m->ddone = y;
		m->capdefer = cap;
	}
	if (sec && m->ndsec + n + nwait > m->capdsec) {
		uint32_t cap = m->capdsec ? 2 * m->capdsec : 4096;
		while (cap < m->ndsec + n + nwait)
			cap *= 2;
		uint64_t *d = iw_realloc(m->dsec, cap * sizeof *d);
		if (!d)
			return -1;
		m->dsec = d;
		m->capdsec = cap;
	}
	struct mem_defer *d = &m->defer[m->ndefer];
	d->now = now;
	d->cookie = cookie;
	d->d1 = d1;
	d->floor = floor;
	d->sm = sm;
	d->order = m->ndefer++;
	d->n = n;
	d->nwait = nwait;
	d->level = (uint8_t)level;
	d->store = (uint8_t)store;
	d->atomic = (uint8_t)atomic;
	d->sec = m->ndsec;
	if (sec) {
		memcpy(&m->dsec[m->ndsec], sec, n * sizeof *sec);
		m->ndsec += n;
		for (uint32_t i = 0; i < nwait; i++)
			m->dsec[m->ndsec++] = waits[i];
	}
	return 0;
}

static uint32_t global_access(struct iw_memsys *m, uint32_t sm, const struct iw_inst *in, const uint64_t *sec,
			      uint32_t n, uint64_t now, uint64_t *act, uint64_t cookie)
{
	const struct iw_config *c = &m->cfg;
	int atomic = (in->flags & IW_F_ATOMIC) != 0;
	int store = (in->flags & IW_F_STORE) && !(in->flags & IW_F_LOAD); /* RED counts as a store */
	struct cache *l1 = m->l1 ? &m->l1[sm] : NULL;
	uint64_t go[MAX_SECT]; /* the sectors that go on to L2, in order */
	uint64_t *fill[MAX_SECT]; /* the ready times of the L1 sectors they fill */
	uint32_t waits[MAX_SECT]; /* deferred mode: queued accesses whose fills this one merges into */
	const uint64_t *gs = sec;
	uint32_t to_l2 = n, wb, nwait = 0;
	uint64_t d1 = 0, ready = now; /* the latest arrival of a fill in flight it merges into */
	if (l1 && !atomic) {
		uint32_t hits = 0;
		to_l2 = 0;
		for (uint32_t i = 0; i < n; i++) {
			uint64_t *r = NULL;
			int k = cache_access(l1, sec[i] & ~PART_WRITE, now, !store, !store, 0, 0, &wb, &r);
			/* a load of a sector whose fill is in flight waits for it
			 * without a request of its own: counted as a hit (it costs
			 * the L1 access of a hit, nothing below) */
			hits += (uint32_t)(k != LOOK_MISS);
			if (k == LOOK_RESERVED && !store) {
				if (!(*r & READY_QUEUED)) {
					ready = *r > ready ? *r : ready;
				} else {
					uint32_t o = (uint32_t)*r, j = 0;
					while (j < nwait && waits[j] != o)
						j++;
					if (j == nwait)
						waits[nwait++] = o;
				}
			}
			if (store || k == LOOK_MISS) {
				if (!store)
					fill[to_l2] = r;
				go[to_l2++] = sec[i];
			}
		}
		gs = go;
		act[IW_A_L1_ACCESS] += n;
		act[IW_A_L1_HIT] += hits;
		act[IW_A_L1_MISS] += n - hits;
		d1 = serve(&m->l1bw[sm], now, n);
	}
	/* the latency at least: an L1 hit's, or the wait for a known fill */
	uint64_t floor = to_l2 ? 0 : c->l1_latency + d1;
	floor = ready - now > floor ? ready - now : floor;
	if (!to_l2 && !nwait)
		return (uint32_t)floor;
	if (m->deferring) {
		/* the L1 sectors this access fills arrive when the flush serves it */
		if (l1 && !store && !atomic)
			for (uint32_t i = 0; i < to_l2; i++)
				*fill[i] = READY_QUEUED | m->ndefer;
		return defer_push(m, sm, now, d1, gs, to_l2, 0, store, atomic, cookie, floor, waits, nwait)
			       ? IW_MEM_FAILED
			       : IW_MEM_DEFERRED;
	}
	uint64_t lat = d1 + l2_sectors(m, gs, to_l2, store, atomic, now + d1, act);
	lat = lat > floor ? lat : floor;
	if (l1 && !store && !atomic)
		for (uint32_t i = 0; i < to_l2; i++)
			*fill[i] = now + lat;
	return (uint32_t)lat;
}

/* No lane addresses: the level the generator drew, a coalesced access. */
static uint32_t level_access(struct iw_memsys *m, uint32_t sm, const struct iw_inst *in, uint32_t n,
			     uint64_t now, uint64_t *act, uint64_t cookie)
{
	const struct iw_config *c = &m->cfg;
	int atomic = (in->flags & IW_F_ATOMIC) != 0;
	int store = (in->flags & IW_F_STORE) && !(in->flags & IW_F_LOAD);
	int level = in->mem_level < 1 ? 1 : in->mem_level > 3 ? 3 : in->mem_level;
	if ((!m->l1 || atomic) && level == 1)
		level = 2;
	if (!m->has_l2 && level == 2)
		level = 3;
	uint64_t d1 = 0;
	if (m->l1 && !atomic) {
		act[IW_A_L1_ACCESS] += n;
		if (level == 1 && !store)
			act[IW_A_L1_HIT] += n;
		else
			act[IW_A_L1_MISS] += n;
		d1 = serve(&m->l1bw[sm], now, n);
	}
	if (level == 1 && !store)
		return (uint32_t)(c->l1_latency + d1);
	if (m->deferring)
		return defer_push(m, sm, now, d1, NULL, n, level, store, atomic, cookie, 0, NULL, 0) ? IW_MEM_FAILED
													: IW_MEM_DEFERRED;
	return (uint32_t)d1 + l2_level(m, level, n, store, now + d1, act);
}

/* The wavefronts a conflict-free access of contiguous lanes takes: their
 * bytes over the banks' 4 bytes each per wavefront (LDS.128: 4). */
static inline uint32_t shared_wavefronts(const struct iw_memsys *m, const struct iw_inst *in)
{
	uint32_t w = in->mem_width ? in->mem_width : 4, row = 4 * (uint32_t)IW_MAX(m->cfg.shmem_banks, 1);
	uint32_t bytes = popcount32(in->mask) * w;
	return bytes > row ? (bytes + row - 1) / row : 1;
}

/* A shared-memory access with k extra wavefronts (sm already reduced). */
static inline uint32_t shared_access(struct iw_memsys *m, uint32_t sm, const struct iw_inst *in, uint32_t k,
				     uint64_t now, uint64_t *act)
{
	/* The wavefronts a wide access needs anyway are not bank conflicts
	 * (Nsight counts none for a contiguous LDS.128): counted apart, priced
	 * as conflicts were (the same replayed cycle). */
	uint32_t wide = IW_MIN(k, shared_wavefronts(m, in) - 1);
	act[IW_A_SHMEM_ACCESS] += 1;
	act[IW_A_SHMEM_CONFLICT] += k - wide;
	act[IW_A_SHMEM_WAVEFRONT] += wide;
	/* 1 + k wavefronts through the SM's shared-memory pipe: at idle the
	 * delay is exactly the k conflict cycles */
	return (uint32_t)(m->cfg.shmem_latency + serve(&m->shbw[sm], now, 1 + (uint64_t)k));
}

static inline uint32_t mem_access(struct iw_memsys *m, uint32_t sm, const struct iw_inst *in,
				  const struct iw_mem_addrs *ma, uint64_t now, uint64_t *act, int st, uint64_t cookie)
{
	const struct iw_config *c = &m->cfg;
	if (sm >= m->nsm)
		sm %= m->nsm;
	if (!in->mask) /* predicated off: issues, touches nothing */
		return 1;
	switch (in->space) {
	case IW_SPACE_SHARED:
		if (ma && ma->n)
			return shared_access(m, sm, in,
					     shmem_conflicts(ma, in->mem_width, (uint32_t)c->shmem_banks, st && ma->strided),
					     now, act);
		/* No addresses: conflict-free, lanes contiguous (as a built-in
		 * kernel's tiles are laid out), so a wide access takes as many
		 * wavefronts as the trace path gives such lanes. */
		return shared_access(m, sm, in, shared_wavefronts(m, in) - 1, now, act);
	case IW_SPACE_CONST:
		act[IW_A_CONST_ACCESS] += 1;
		return (uint32_t)c->const_latency;
	case IW_SPACE_TEX:
		act[IW_A_CONST_ACCESS] += 1;
		return (uint32_t)c->tex_latency;
	case IW_SPACE_GLOBAL:
	case IW_SPACE_LOCAL: break;
	default: return 1; /* fences, cache control: no data moves */
	}
	uint32_t width = in->mem_width ? in->mem_width : 4;
	if (ma && ma->n) {
		uint64_t sec[MAX_SECT];
		uint32_t n = coalesce(ma, IW_MIN(width, 64u), sec, MAX_SECT, st && ma->strided);
		if (n && (in->flags & IW_F_STORE) && !(in->flags & (IW_F_LOAD | IW_F_ATOMIC)))
			mark_partial(ma, IW_MIN(width, 64u), sec, n, st && ma->strided);
		if (n)
			return global_access(m, sm, in, sec, n, now, act, cookie);
	}
	uint32_t active = popcount32(in->mask);
	uint32_t n = (active * width + SECTOR - 1) / SECTOR;
	return level_access(m, sm, in, IW_MAX(n, 1u), now, act, cookie);
}

uint32_t iw_mem_access(struct iw_memsys *m, uint32_t sm, const struct iw_inst *in,
		       const struct iw_mem_addrs *ma, uint64_t now, uint64_t *act)
{
	return mem_access(m, sm, in, ma, now, act, 0, IW_MEM_NO_COOKIE);
}

uint32_t iw_mem_access_entry(struct iw_memsys *m, uint32_t sm, const struct iw_inst *in,
			     const struct iw_mem_addrs *ma, uint64_t now, uint64_t *act, uint64_t cookie)
{
	return mem_access(m, sm, in, ma, now, act, 1, cookie);
}

uint32_t iw_mem_shared_conflicts(const struct iw_memsys *m, const struct iw_inst *in, const struct iw_mem_addrs *ma)
{
	return ma && ma->n ? shmem_conflicts(ma, in->mem_width, (uint32_t)m->cfg.shmem_banks, ma->strided) : 0;
}

uint32_t iw_mem_access_shared(struct iw_memsys *m, uint32_t sm, const struct iw_inst *in, uint32_t k, uint64_t now,
			      uint64_t *act)
{
	/* mem_access's first steps, then its shared-memory case */
	if (sm >= m->nsm)
		sm %= m->nsm;
	if (!in->mask)
		return 1;
	return shared_access(m, sm, in, k, now, act);
}

void iw_memsys_defer(struct iw_memsys *m, int on) { m->deferring = on; }

static int defer_cmp(const void *a, const void *b)
{
	const struct mem_defer *x = a, *y = b;
	if (x->now != y->now)
		return x->now < y->now ? -1 : 1;
	if (x->sm != y->sm)
		return x->sm < y->sm ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

void iw_memsys_flush(struct iw_memsys *m, uint64_t *act, iw_mem_done_fn done, void *ctx)
{
	if (!m->ndefer)
		return;
	/* Each SM queued its accesses in its own time order; the servers must
	 * see them as the cycle-by-cycle model does: by cycle, then SM, then
	 * the order within the SM's cycle.  A span is at most 256 cycles: a
	 * counting sort by cycle (stable, so queue order within a cycle), then
	 * by SM within each cycle (insertion, stable: nearly sorted already). */
	uint64_t tmin = m->defer[0].now, tmax = tmin;
	for (uint32_t i = 1; i < m->ndefer; i++) {
		uint64_t t = m->defer[i].now;
		tmin = t < tmin ? t : tmin;
		tmax = t > tmax ? t : tmax;
	}
	uint32_t *idx = m->didx;
	if (tmax - tmin < DEFER_CYCLES) {
		uint32_t start[DEFER_CYCLES + 1] = {0};
		uint32_t span = (uint32_t)(tmax - tmin) + 1;
		for (uint32_t i = 0; i < m->ndefer; i++)
			start[m->defer[i].now - tmin + 1]++;
		for (uint32_t c = 1; c <= span; c++)
			start[c] += start[c - 1];
		for (uint32_t i = 0; i < m->ndefer; i++)
			idx[start[m->defer[i].now - tmin]++] = i;
		/* start[c] is now the end of cycle c's run */
		for (uint32_t c = 0, b = 0; c < span; b = start[c++])
			for (uint32_t i = b + 1; i < start[c]; i++) {
				uint32_t v = idx[i], j = i;
				for (; j > b && m->defer[idx[j - 1]].sm > m->defer[v].sm; j--)
					idx[j] = idx[j - 1];
				idx[j] = v;
			}
	} else {
		qsort(m->defer, m->ndefer, sizeof *m->defer, defer_cmp);
		for (uint32_t i = 0; i < m->ndefer; i++)
			idx[i] = i;
	}
	for (uint32_t i = 0; i < m->ndefer; i++) {
		const struct mem_defer *d = &m->defer[idx[i]];
		uint64_t t = d->now + d->d1;
		const uint64_t *sec = &m->dsec[d->sec];
		uint64_t lat = d->level ? d->d1 + l2_level(m, d->level, d->n, d->store, t, act)
			       : d->n  ? d->d1 + l2_sectors(m, sec, d->n, d->store, d->atomic, t, act)
				       : 0;
		lat = lat > d->floor ? lat : d->floor;
		/* the fills it merged into were queued earlier on its SM, so served */
		for (uint32_t k = 0; k < d->nwait; k++)
			if (m->ddone[sec[d->n + k]] > d->now + lat)
				lat = m->ddone[sec[d->n + k]] - d->now;
		m->ddone[d->order] = d->now + lat;
		/* its L1 fills arrive now (unless evicted and refilled since) */
		if (!d->level && m->l1 && !d->store && !d->atomic)
			for (uint32_t k = 0; k < d->n; k++) {
				uint64_t *r = cache_pending(&m->l1[d->sm], sec[k]);
				if (r && *r == (READY_QUEUED | d->order))
					*r = d->now + lat;
			}
		if (d->cookie != IW_MEM_NO_COOKIE)
			done(ctx, d->cookie, d->now, (uint32_t)lat);
	}
	m->ndefer = 0;
	m->ndsec = 0;
}
