/* perf/tables.c -- the name tables behind perf.h's X-macros. */
#include "perf.h"

#include <stddef.h>
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

const struct iw_kstat_field iw_kstat_fields[IW_KSTAT_FIELDS] = {
	{"ctas", offsetof(struct iw_kernel_stat, ctas), 0, "CTAs run"},
	{"start", offsetof(struct iw_kernel_stat, start), 0, "cycle"},
	{"cycles", offsetof(struct iw_kernel_stat, cycles), 0, "cycle"},
	{"warp_insts", offsetof(struct iw_kernel_stat, warp_insts), 0, "warp-instructions"},
	{"ipc", offsetof(struct iw_kernel_stat, ipc), 1, "warp-instructions/cycle"},
	{"sm_busy_mean", offsetof(struct iw_kernel_stat, sm_busy_mean), 1, "cycle (mean over all SMs)"},
	{"energy_j", offsetof(struct iw_kernel_stat, energy_j), 1, "J (the kernel priced alone)"},
	{"avg_power_w", offsetof(struct iw_kernel_stat, avg_power_w), 1, "W"},
	{"energy_j_se", offsetof(struct iw_kernel_stat, energy_j_se), 1, "J (one standard error from the cost model)"},
	{"avg_power_w_se", offsetof(struct iw_kernel_stat, avg_power_w_se), 1, "W (one standard error from the cost model)"},
};

const char *const iw_stall_name[IW_STALL_COUNT] = {
#define X(id, name, help) name,
	IW_STALL_TABLE(X)
#undef X
};

const char *const iw_occ_name[IW_OCC_COUNT] = {"ib", "isb", "cu", "rrs"};

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
