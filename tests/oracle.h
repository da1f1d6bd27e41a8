/* tests/oracle.h -- an independent checker of a run's event log.  It knows
 * only the public event types of perf/perf.h and the rules each scheme
 * promises (SCHEMES.md), written out again here from the papers, never from
 * the schemes' code. */
#ifndef IW_ORACLE_H
#define IW_ORACLE_H

#include "perf.h"

enum orc_release { ORC_AT_ISSUE, ORC_AT_READ, ORC_AT_WB };

struct orc_rules {
	int renaming;          /* 0 none, 1 RAT renaming with an architectural RF (LOOG), 2 unbounded */
	int war;               /* WAR promised (non-renaming schemes) */
	int control;           /* nothing issues past an unresolved control instruction */
	int pred;              /* a predicated branch waits for the last compare */
	int ctrl_waits_older;  /* SOCGPU's stop rule: a control instruction issues once every older one left the buffer */
	int order_at_dispatch; /* memory order is kept at dispatch (LOOG), else at issue */
	int mem_disambig;      /* two memory instructions with addresses may reorder */
	int loads_in_order;    /* GhOST-Precise */
	int tlb_latency;       /* GhOST-Precise: non-idempotent waits for older loads' TLB check */
	int buf_cap;           /* per warp: instructions inserted and not yet released */
	int buf_release;       /* enum orc_release */
	int cu_cap;            /* per sub-core: collector units */
	int cu_hold_wb;        /* a CU of an instruction with a destination is held until write-back */
	int rrs_cap;           /* per sub-core RRS entries, 0 none */
	int wb_cap;            /* per sub-core and cycle: write-backs (results only: those with a result) */
	int wb_results_only;   /* LOOG: the cap is its broadcast bus, which carries only results */
	int issue_width;       /* per scheduler and cycle: issues, all of one warp */
	int issue_diff_units;  /* ... each to another unit class than the one before it */
	int subcores, sms, max_warps;
};

/* The rules `scheme` promises under configuration c; -1 for an unknown scheme. */
int orc_rules_for(const char *scheme, const struct iw_config *c, struct orc_rules *r);

struct orc;
struct orc *orc_new(const struct orc_rules *r);
void orc_free(struct orc *o);
/* An iw_event_fn: pass it with the oracle as ctx in struct iw_sim_opts. */
void orc_event(void *ctx, const struct iw_event *ev);
/* Close the log: every instruction must have completed.  Returns the number of
 * violations; the first one is described in msg. */
uint64_t orc_finish(struct orc *o, uint64_t *retired, char *msg, size_t n);

#endif
