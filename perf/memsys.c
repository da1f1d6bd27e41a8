/* perf/memsys.c -- memory model (being built: fixed latencies for now). */
#include "memsys.h"

struct iw_memsys {
	struct iw_config cfg;
};

int iw_memsys_new(const struct iw_config *c, struct iw_memsys **out, struct iw_err *e)
{
	*out = iw_calloc(1, sizeof **out);
	if (!*out)
		return iw_fail(e, IW_ERUN, "out of memory");
	(*out)->cfg = *c;
	return 0;
}
void iw_memsys_free(struct iw_memsys *m) { iw_free(m); }

uint32_t iw_mem_access(struct iw_memsys *m, uint32_t sm, const struct iw_inst *in,
		       const struct iw_mem_addrs *ma, uint64_t now, uint64_t *act)
{
	(void)sm;
	(void)ma;
	(void)now;
	(void)act;
	const struct iw_config *c = &m->cfg;
	switch (in->space) {
	case IW_SPACE_SHARED: return (uint32_t)c->shmem_latency;
	case IW_SPACE_CONST: return (uint32_t)c->const_latency;
	case IW_SPACE_TEX: return (uint32_t)c->tex_latency;
	default: break;
	}
	return (uint32_t)(in->mem_level <= 1 ? c->l1_latency : in->mem_level == 2 ? c->l2_latency : c->l2_latency + c->dram_latency);
}

uint32_t iw_coalesce(const struct iw_mem_addrs *ma, uint32_t width, uint64_t *sectors, uint32_t cap)
{
	(void)ma;
	(void)width;
	(void)sectors;
	(void)cap;
	return 0;
}

uint32_t iw_shmem_conflicts(const struct iw_mem_addrs *ma, uint32_t width, uint32_t banks)
{
	(void)ma;
	(void)width;
	(void)banks;
	return 0;
}
