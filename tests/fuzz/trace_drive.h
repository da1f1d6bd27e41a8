/* tests/fuzz/trace_drive.h -- walk a trace workload as the engine does. */
#ifndef IW_FUZZ_TRACE_DRIVE_H
#define IW_FUZZ_TRACE_DRIVE_H

#include "fuzz.h"
#include "perf.h"

/* Open `path`, then pull every kernel, CTA and warp instruction with the
 * addresses, release each CTA and close.  Bounded so a valid but huge
 * header cannot make one input run for minutes. */
static inline int iw_fuzz_assert_trace(const char *path)
{
	struct iw_workload *w = NULL;
	struct iw_err e = {0};
	int rc = iw_trace_open(path, &w, &e);
	if (rc != 0)
		return iw_fuzz_assert_status(rc, &e, "iw_trace_open");
	struct iw_kernel_info ki;
	unsigned budget = 20000;
	while (budget && (rc = w->ops->next_kernel(w, &ki, &e)) == 1) {
		struct iw_cta cta;
		while (budget && (rc = w->ops->next_cta(w, &cta, &e)) == 1) {
			int f = 1;
			for (uint32_t wi = 0; wi < cta.warps && budget && f >= 0; wi++) {
				struct iw_inst in;
				struct iw_mem_addrs ma;
				while (budget && (f = w->ops->fetch(w, &cta, wi, &in, &ma, &e)) == 1)
					budget--;
			}
			w->ops->release_cta(w, &cta);
			budget--;
			if (f < 0) {
				rc = f;
				break;
			}
		}
		if (rc < 0)
			break;
	}
	w->ops->close(w);
	return iw_fuzz_assert_status(rc < 0 ? rc : 0, &e, "the trace reader");
}

#endif
