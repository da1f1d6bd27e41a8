/* perf/tables.c -- the name tables behind perf.h's X-macros. */
#include "perf.h"

#include <string.h>

const char *const iw_unit_name[IW_UNIT_COUNT] = {
#define X(id, name, help) name,
	IW_UNIT_TABLE(X)
#undef X
};

const char *const iw_space_name[IW_SPACE_COUNT] = {"none", "global", "local", "shared", "const", "tex"};

const struct iw_struct_desc iw_structs[IW_S_COUNT] = {
#define X(id, name, help) {name, help},
	IW_STRUCT_TABLE(X)
#undef X
};

const struct iw_act_desc iw_acts[IW_A_COUNT] = {
#define X(id, s, action, unit, help) {#id, IW_S_##s, unit, help},
	IW_ACT_TABLE(X)
#undef X
};

const char *const iw_stall_name[IW_STALL_COUNT] = {
#define X(id, name, help) name,
	IW_STALL_TABLE(X)
#undef X
};

static const char *const act_names[IW_A_COUNT] = {
#define X(id, s, action, unit, help) IW_SNAME_##s "." action,
	IW_ACT_TABLE(X)
#undef X
};

const char *iw_act_name(int a) { return a >= 0 && a < IW_A_COUNT ? act_names[a] : "?"; }

int iw_act_find(const char *name)
{
	for (int a = 0; a < IW_A_COUNT; a++)
		if (strcmp(act_names[a], name) == 0)
			return a;
	return -1;
}
