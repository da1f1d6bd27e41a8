/*
 * perf/memsys.h -- perf-internal interface of the memory model (SCHEMES.md
 * section 1): interval-style, not cycle-accurate.  The SM model calls
 * iw_mem_access when a memory instruction dispatches; the model answers how
 * many cycles until its data is back and counts the hierarchy's activities.
 *
 * With lane addresses (traces): shared memory = fixed latency + bank-conflict
 * cycles; global/local = coalesce into 32-byte sectors, L1 per SM
 * (set-associative, LRU), shared L2, DRAM, each with a latency plus a
 * bandwidth/queueing delay; a request for a sector whose fill is in flight
 * waits for that fill (an MSHR merge).  Without addresses (built-in workloads): the
 * latency of the level the generator drew (inst->mem_level) plus queueing.
 * Constant/texture: fixed latencies.
 */
#ifndef IW_MEMSYS_H
#define IW_MEMSYS_H

#include "perf.h"

struct iw_memsys;

int iw_memsys_new(const struct iw_config *c, struct iw_memsys **out, struct iw_err *e);
void iw_memsys_free(struct iw_memsys *m);
/* Cycles from dispatch until the result is written back (>= 1).  `act` is the
 * run's activity array (IW_A_COUNT), to which the accesses are added.
 * Deterministic: the same sequence of calls gives the same answers. */
uint32_t iw_mem_access(struct iw_memsys *m, uint32_t sm, const struct iw_inst *in,
		       const struct iw_mem_addrs *ma, uint64_t now, uint64_t *act);
/* The same for an entry of the engine's address pool, whose `strided` field
 * the fetch always set (perf.h): a warp at a constant stride is then modelled
 * from addr[0] and the stride, with the same answers, without reading the
 * other 31 addresses (four cache lines the host has long evicted). */
uint32_t iw_mem_access_entry(struct iw_memsys *m, uint32_t sm, const struct iw_inst *in,
			     const struct iw_mem_addrs *ma, uint64_t now, uint64_t *act, uint64_t cookie);
/* A shared-memory access of an entry (in->space IW_SPACE_SHARED) in two
 * steps: its bank conflicts, a pure function of the entry's addresses
 * (iw_mem_shared_conflicts, at fetch while the addresses are in the host's
 * cache), then the access with that count (iw_mem_access_shared, at
 * dispatch, without reading the entry): the same answers and activities as
 * iw_mem_access_entry. */
uint32_t iw_mem_shared_conflicts(const struct iw_memsys *m, const struct iw_inst *in, const struct iw_mem_addrs *ma);
uint32_t iw_mem_access_shared(struct iw_memsys *m, uint32_t sm, const struct iw_inst *in, uint32_t k, uint64_t now,
			      uint64_t *act);

/* Deferred mode, for a simulation that runs SM after SM over a span of cycles
 * shorter than any trip to L2: the L1 part of an access (per SM) is served at
 * once, the shared part (L2, DRAM) is queued (so is a load merging into an L1
 * fill queued in the same span) and iw_mem_access_entry answers
 * IW_MEM_DEFERRED (IW_MEM_FAILED: out of memory).  iw_memsys_flush serves the
 * queue in (cycle, SM, order) order, exactly as calls in that order would
 * have, and hands each latency with its cookie to `done` (not for cookie
 * IW_MEM_NO_COOKIE: a store nobody waits for). */
#define IW_MEM_DEFERRED UINT32_MAX
#define IW_MEM_FAILED (UINT32_MAX - 1)
#define IW_MEM_NO_COOKIE UINT64_MAX
typedef void (*iw_mem_done_fn)(void *ctx, uint64_t cookie, uint64_t now, uint32_t latency);
void iw_memsys_defer(struct iw_memsys *m, int on);
void iw_memsys_flush(struct iw_memsys *m, uint64_t *act, iw_mem_done_fn done, void *ctx);

/* Pure helpers the tests check directly. */
/* Distinct 32-byte sectors touched by the lanes; fills sectors[] (sorted). */
uint32_t iw_coalesce(const struct iw_mem_addrs *ma, uint32_t width, uint64_t *sectors, uint32_t cap);
/* Extra cycles from shared-memory bank conflicts (max lanes on one bank - 1,
 * lanes reading the same word broadcast). */
uint32_t iw_shmem_conflicts(const struct iw_mem_addrs *ma, uint32_t width, uint32_t banks);

#endif
