/* perf/schemes.c -- the scheme registry: one entry per scheme, in report
 * order (the baseline first).  Adding a scheme = one file + one line here. */
#include "sim.h"

#include <string.h>

extern const struct iw_scheme_ops iw_scheme_inorder;
extern const struct iw_scheme_ops iw_scheme_socgpu;
extern const struct iw_scheme_ops iw_scheme_ghost;
extern const struct iw_scheme_ops iw_scheme_loog;
extern const struct iw_scheme_ops iw_scheme_ideal;

const struct iw_scheme_ops *const iw_scheme_registry[] = {
	&iw_scheme_inorder,
	&iw_scheme_socgpu,
	&iw_scheme_ghost,
	&iw_scheme_loog,
	&iw_scheme_ideal,
};
const size_t iw_scheme_registry_len = IW_ARRAY_LEN(iw_scheme_registry);

size_t iw_scheme_count(void) { return iw_scheme_registry_len; }
const char *iw_scheme_name(size_t i) { return i < iw_scheme_registry_len ? iw_scheme_registry[i]->name : NULL; }
const char *iw_scheme_help(size_t i) { return i < iw_scheme_registry_len ? iw_scheme_registry[i]->help : NULL; }

int iw_scheme_find(const char *name)
{
	for (size_t i = 0; i < iw_scheme_registry_len; i++)
		if (strcmp(iw_scheme_registry[i]->name, name) == 0)
			return (int)i;
	return -1;
}
