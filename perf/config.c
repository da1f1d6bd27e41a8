/*
 * perf/config.c -- the GPU/SM configuration: one parameter table that drives
 * defaults, XML parsing, --set, --help-config and the XSD (config.xsd is
 * generated from it by 'issuewatt list schema' and a test checks they agree).
 */
#include "perf.h"

#include <libxml/tree.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char *const policy_names[] = {"gto", "lrr", "srr", NULL};
static const char *const release_names[] = {"writeback", "operands", NULL};
static const char *const loog_mem_names[] = {"lsq", "inorder", NULL};
static const char *const dispatch_names[] = {"oldest", "lowest_id", NULL};

#define OFF(f) offsetof(struct iw_config, f)
#define I(key, unit, def, min, max, field, help) {key, IW_PT_INT, unit, def, min, max, NULL, OFF(field), help}
#define R(key, unit, def, min, max, field, help) {key, IW_PT_REAL, unit, def, min, max, NULL, OFF(field), help}
#define B(key, def, field, help) {key, IW_PT_BOOL, "", def, 0, 1, NULL, OFF(field), help}
#define E(key, def, names, field, help) {key, IW_PT_ENUM, "", def, 0, 0, names, OFF(field), help}
#define UNIT(cls, u_, lat_, ii_, name)                                                              \
	I("exec." name "_units", "", u_, 1, 64, units[IW_UNIT_##cls], "units of class " name " per sub-core"), \
	I("exec." name "_latency", "cycle", lat_, 1, 1024, latency[IW_UNIT_##cls], "result latency of " name), \
	I("exec." name "_ii", "cycle", ii_, 1, 256, ii[IW_UNIT_##cls], "initiation interval of one " name " unit (cycles a warp occupies it)")

/* Defaults: a V100-like GPU (SOCGPU Table 1; latencies after Accel-Sim's
 * SM7_QV100 configuration and Jia et al., "Dissecting Volta", 2018). */
const struct iw_param iw_params[] = {
	I("gpu.sms", "", 80, 1, 1024, sms, "streaming multiprocessors"),
	I("gpu.subcores", "", 4, 1, 16, subcores, "sub-cores (warp schedulers) per SM; warp w lives in sub-core w % subcores"),
	R("gpu.clock_mhz", "MHz", 1530, 1, IW_CLOCK_MHZ_MAX, clock_mhz, "core clock"),
	R("gpu.die_area_mm2", "mm^2", 815, 0.001, 10000, die_area_mm2, "die area of the whole chip, for overhead percentages, at the process of gpu.die_area_factor"),
	/* The die is measured at one process (GV100 and TU106: TSMC 12 nm) but
	 * priced at any node: it is scaled as every structure is, so that a
	 * design's overhead in % of the die does not depend on the node. */
	R("gpu.die_area_factor", "", 0.17, 0.001, 100, die_area_factor, "area factor (vs 45 nm, Stillmaker and Baas 2017, as a tech file's derive area factor) of the process gpu.die_area_mm2 was measured at: on an ASIC node the die is die_area_mm2 x the node's factor / this (0.17: 12 nm, as tech/12nm.xml)"),
	I("sm.max_warps", "", 64, 1, 256, max_warps, "resident warps per SM"),
	I("sm.max_threads", "", 2048, 0, 8192, max_threads, "resident threads per SM, 0 = max_warps x warp_size (the warp slots are the only limit, as Vortex)"),
	I("sm.max_ctas", "", 32, 1, 256, max_ctas, "resident CTAs per SM"),
	I("sm.regs", "reg", 65536, 1, 1048576, regs, "32-bit registers per SM (unused when sm.regs_per_thread > 0)"),
	I("sm.regs_per_thread", "reg", 0, 0, 1024, regs_per_thread, "registers of each thread slot where every hardware thread has its own (Vortex, RISC-V: 32 integer + 32 FP = 64): the register file is max_warps x warp_size x this; 0 = sm.regs"),
	/* Registers go to a CTA in granules, so that a kernel's count between two
	 * multiples costs the next one: GPGPU-Sim/Accel-Sim (shader.cc, max_cta)
	 * round registers per thread up to a multiple of 4, ((regs + 3) & ~3), the
	 * simulator whose results the schemes' papers report; NVIDIA GPUs since
	 * Kepler allocate per warp in units of 256 registers, 8 per thread at 32
	 * lanes (CUDA occupancy calculator). */
	I("sm.reg_granularity", "reg", 4, 1, 256, reg_granularity, "registers per thread are allocated in multiples of this (a CTA's threads padded to whole warps): 4 = Accel-Sim/GPGPU-Sim (shader.cc max_cta rounds regs + 3 down to a multiple of 4), 8 = NVIDIA hardware since Kepler (256 registers per 32-thread warp), 1 = exact; unused when sm.regs_per_thread > 0"),
	I("sm.shmem_kb", "KiB", 96, 0, 1024, shmem_kb, "shared memory per SM"),
	I("sm.warp_size", "thread", 32, 1, 32, warp_size, "threads per warp (SIMT lanes)"),
	I("core.fetch_width", "inst", 2, 1, 16, fetch_width, "instructions fetched per cycle per sub-core (for one warp)"),
	I("core.fetch_buffer", "inst", 2, 1, 64, fetch_buffer, "decoded-instruction front buffer per warp, ahead of the scheme's IB"),
	/* GPGPU-Sim/Accel-Sim (shader.cc, scheduler_unit::cycle), the simulator
	 * of the schemes' papers: a scheduler issues from one warp per cycle, a
	 * next instruction of it only if the ones before it issued, and with
	 * gpgpu_dual_issue_diff_exec_units (its default, 1: "as in Maxwell and
	 * Pascal") only to another execution unit than the one before. */
	I("core.issue_width", "inst", 1, 1, 8, issue_width, "instructions issued per cycle per scheduler, all from the one warp the policy picks: a next one only if those before it issued (GPGPU-Sim's gpgpu_max_insn_issue_per_warp)"),
	B("core.dual_issue_diff_units", 1, dual_issue_diff_units, "with core.issue_width > 1, an instruction issues in the cycle of the warp's previous issue only to another unit class (GPGPU-Sim's gpgpu_dual_issue_diff_exec_units, default 1)"),
	I("core.wb_width", "result", 2, 1, 16, wb_width, "results written back per cycle per sub-core"),
	/* srr is the GhOST paper's "strong round robin (SRR) which only looks at
	 * the next warp to be considered for scheduling" (section VI-B; Accel-Sim's
	 * rrr scheduler, perf/sim.c srr_turn), the policy whose results the option
	 * reproduces.  SCHEMES.md calls it "two-level strict round robin"; no second
	 * level is modelled: the paper describes one. */
	E("core.policy", 0, policy_names, policy, "warp scheduling policy: gto (greedy then oldest), lrr (loose round robin: the first ready warp after the last to issue), srr (strict round robin: only the warp whose turn it is, which moves on after an issue or off a warp at a barrier or done)"),
	I("opc.cus", "", 2, 1, 64, cus, "collector units per sub-core (operand buffers for in-order, socgpu, ghost)"),
	I("opc.rf_banks", "", 2, 1, 64, rf_banks, "register-file banks per sub-core; register r of warp w is in bank (r + w) % banks"),
	I("opc.rf_read_ports", "", 0, 0, 64, rf_read_ports, "operand reads per cycle per sub-core, 0 = one per bank (1 models Vortex's single-ported RF)"),
	UNIT(INT, 1, 4, 2, "int"),
	UNIT(SP, 1, 4, 2, "sp"),
	UNIT(DP, 1, 8, 4, "dp"),
	UNIT(SFU, 1, 21, 8, "sfu"),
	UNIT(TENSOR, 1, 32, 16, "tensor"),
	UNIT(MEM, 1, 4, 1, "mem"),
	UNIT(BRANCH, 1, 4, 1, "branch"),
	I("mem.l1_kb", "KiB", 32, 0, 4096, l1_kb, "L1 data cache per SM (0 = none)"),
	I("mem.l1_assoc", "way", 4, 1, 64, l1_assoc, "L1 associativity"),
	I("mem.l1_line", "B", 128, 32, 1024, l1_line, "L1 line size (four 32-byte sectors at 128)"),
	I("mem.l1_latency", "cycle", 28, 1, 1000, l1_latency, "L1 hit latency"),
	I("mem.l1_sectors_per_cycle", "sector", 4, 1, 64, l1_sectors_per_cycle, "L1 bandwidth per SM"),
	I("mem.l2_kb", "KiB", 6144, 0, 1048576, l2_kb, "L2 cache, whole GPU"),
	I("mem.l2_assoc", "way", 16, 1, 64, l2_assoc, "L2 associativity"),
	I("mem.l2_latency", "cycle", 193, 1, 5000, l2_latency, "L2 hit latency seen by an SM"),
	I("mem.l2_sectors_per_cycle", "sector", 64, 1, 4096, l2_sectors_per_cycle, "L2 bandwidth, whole GPU"),
	I("mem.dram_latency", "cycle", 420, 1, 10000, dram_latency, "DRAM latency beyond L2"),
	I("mem.dram_sectors_per_cycle", "sector", 18, 1, 4096, dram_sectors_per_cycle, "DRAM bandwidth, whole GPU (V100: ~900 GB/s at 1.53 GHz)"),
	I("mem.shmem_latency", "cycle", 19, 1, 1000, shmem_latency, "shared-memory latency without conflicts"),
	I("mem.shmem_banks", "", 32, 1, 64, shmem_banks, "shared-memory banks (4 bytes wide)"),
	I("mem.const_latency", "cycle", 8, 1, 1000, const_latency, "constant-cache hit latency"),
	I("mem.tex_latency", "cycle", 100, 1, 5000, tex_latency, "texture latency"),
	I("inorder.ib_size", "inst", 2, 1, 64, inorder_ib_size, "in-order instruction buffer entries per warp"),
	B("inorder.war_scoreboard", 1, war_scoreboard, "WAR scoreboard (sources marked at issue, cleared at write-back), as the SOCGPU evaluation added"),
	I("socgpu.ib_size", "inst", 8, 1, 64, socgpu_ib_size, "SOCGPU instruction buffer entries per warp (and matrix dimension)"),
	E("socgpu.release_at", 0, release_names, socgpu_release_at, "when an IB entry is freed: writeback (paper) or operands (read)"),
	I("ghost.ib_size", "inst", 4, 1, 64, ghost_ib_size, "GhOST in-order front IB entries per warp"),
	I("ghost.isb_size", "inst", 8, 1, 64, ghost_isb_size, "GhOST issue-buffer slots per warp"),
	I("ghost.itab_size", "inst", 2, 1, 16, ghost_itab_size, "GhOST instruction-table entries per warp"),
	I("ghost.dc_units", "", 4, 1, 64, ghost_dc_units, "dependence-checker units per scheduler (one instruction each per cycle)"),
	B("ghost.precise", 0, ghost_precise, "GhOST-Precise: precise exceptions (loads in order, non-idempotent wait for TLB checks)"),
	I("ghost.tlb_check_latency", "cycle", 20, 0, 10000, ghost_tlb_check_latency, "cycles after issue until a load passed its TLB check"),
	I("loog.ib_size", "inst", 4, 1, 64, loog_ib_size, "LOOG in-order IB entries per warp"),
	I("loog.cus", "", 8, 1, 64, loog_cus, "collector units as reservation stations per sub-core"),
	I("loog.rrs", "entry", 0, 0, IW_LOOG_RRS_MAX, loog_rrs, "register renaming stack entries per sub-core (0 = none, unless rrs_factor)"),
	R("loog.rrs_factor", "", 0, 0, 8, loog_rrs_factor, "RRS entries as a multiple of cus (used when loog.rrs = 0; the product, rounded, within loog.rrs's range)"),
	I("loog.broadcasts", "result", 1, 1, 16, loog_broadcasts, "result broadcasts per cycle per sub-core (SCHEMES.md: one)"),
	E("loog.mem", 0, loog_mem_names, loog_mem, "memory ordering: lsq (original LOOG) or inorder (LOOG-Vortex)"),
	E("loog.dispatch", 0, dispatch_names, loog_dispatch, "CU dispatch priority: oldest, or lowest_id (Vortex)"),
	I("ideal.window", "inst", 64, 1, 4096, ideal_window, "instruction window per warp"),
	B("ideal.renaming", 1, ideal_renaming, "unbounded renaming (no WAR/WAW)"),
	B("ideal.disambiguation", 1, ideal_disambiguation, "perfect memory disambiguation from the addresses"),
	B("ideal.fetch_through_control", 1, ideal_fetch_through_control, "fetch through control instructions (perfect prediction)"),
	I("run.interval", "cycle", 1000, 1, 1000000000, interval, "cycles per activity/power sample (doubles on long runs to bound memory)"),
	B("run.fast_forward", 1, fast_forward, "skip cycles where nothing can move (exact; off = step every cycle)"),
	I("run.seed", "", 1, 0, 2147483647, seed, "seed of the built-in workload generator"),
	R("run.workload_scale", "", 1, 0.0001, 1000, workload_scale, "scales the built-in workloads' grid sizes"),
};
const size_t iw_param_count = IW_ARRAY_LEN(iw_params);

const struct iw_param *iw_param_find(const char *key)
{
	for (size_t i = 0; i < iw_param_count; i++)
		if (strcmp(iw_params[i].key, key) == 0)
			return &iw_params[i];
	return NULL;
}

static void put(struct iw_config *c, const struct iw_param *p, double v)
{
	char *base = (char *)c + p->offset;
	if (p->type == IW_PT_REAL)
		*(double *)base = v;
	else
		*(int *)base = (int)v;
}

static double get(const struct iw_config *c, const struct iw_param *p)
{
	const char *base = (const char *)c + p->offset;
	return p->type == IW_PT_REAL ? *(const double *)base : *(const int *)base;
}

void iw_config_defaults(struct iw_config *c)
{
	memset(c, 0, sizeof *c);
	snprintf(c->name, sizeof c->name, "default");
	for (size_t i = 0; i < iw_param_count; i++)
		put(c, &iw_params[i], iw_params[i].def);
}

int iw_config_get(const struct iw_config *c, const char *key, double *value)
{
	const struct iw_param *p = iw_param_find(key);
	if (!p)
		return -1;
	*value = get(c, p);
	return 0;
}

/* Parse one value by the table's type and range.  `where` prefixes the message. */
static int parse_value(const struct iw_param *p, const char *s, double *v, const char *where,
		       struct iw_err *e)
{
	char expect[256];
	if (p->type == IW_PT_ENUM) {
		size_t n = 0;
		expect[0] = 0;
		for (const char *const *q = p->enums; *q; q++, n++) {
			if (strcmp(*q, s) == 0) {
				*v = (double)n;
				return 0;
			}
			snprintf(expect + strlen(expect), sizeof expect - strlen(expect), "%s%s", n ? "|" : "", *q);
		}
		return iw_fail(e, IW_EINPUT, "%s%s: expected one of %s, found '%s'", where, p->key, expect, s);
	}
	if (p->type == IW_PT_BOOL) {
		if (!strcmp(s, "1") || !strcmp(s, "true") || !strcmp(s, "on") || !strcmp(s, "yes"))
			*v = 1;
		else if (!strcmp(s, "0") || !strcmp(s, "false") || !strcmp(s, "off") || !strcmp(s, "no"))
			*v = 0;
		else
			return iw_fail(e, IW_EINPUT, "%s%s: expected true or false, found '%s'", where, p->key, s);
		return 0;
	}
	if (p->type == IW_PT_INT) {
		long l;
		/* the unit is the key's, not written with the value (a value
		 * such as 1.5GHz is refused with the unit it is read in) */
		if (iw_parse_long(s, &l))
			return iw_fail(e, IW_EINPUT, "%s%s: expected an integer%s%s%s, found '%s'", where, p->key,
				       *p->unit ? " (unit " : "", p->unit, *p->unit ? ")" : "", s);
		*v = (double)l;
	} else if (iw_parse_double(s, v)) {
		return iw_fail(e, IW_EINPUT, "%s%s: expected a finite number%s%s%s, found '%s'", where, p->key,
			       *p->unit ? " (unit " : "", p->unit, *p->unit ? ")" : "", s);
	}
	if (*v < p->min || *v > p->max)
		return iw_fail(e, IW_EINPUT, "%s%s: expected a value in [%.10g, %.10g]%s%s, found %s", where, p->key,
			       p->min, p->max, *p->unit ? " " : "", p->unit, s);
	return 0;
}

int iw_config_set(struct iw_config *c, const char *assignment, struct iw_err *e)
{
	const char *eq = strchr(assignment, '=');
	if (!eq || eq == assignment)
		return iw_fail(e, IW_EUSAGE, "--set '%s': expected key=value", assignment);
	char key[128];
	size_t kl = (size_t)(eq - assignment);
	if (kl >= sizeof key)
		kl = sizeof key - 1;
	memcpy(key, assignment, kl);
	key[kl] = 0;
	const struct iw_param *p = iw_param_find(key);
	if (!p)
		return iw_fail(e, IW_EINPUT, "--set %s: unknown configuration key (see 'issuewatt --help-config')", key);
	double v;
	int rc = parse_value(p, eq + 1, &v, "--set ", e);
	if (rc)
		return rc;
	put(c, p, v);
	return 0;
}

static int xml_line(xmlNodePtr n) { return n ? (int)xmlGetLineNo(n) : 0; }

int iw_config_load(struct iw_config *c, const char *arg, char **xml_text, struct iw_err *e)
{
	/* A file names only what differs from the defaults. */
	iw_config_defaults(c);
	xmlDocPtr doc = NULL;
	char *text = NULL, *origin = NULL;
	int rc = iw_xml_load_preset_or_file(arg, "perf/presets", "perf/config.xsd", &doc, &text, &origin, e);
	if (rc)
		return rc;
	xmlNodePtr root = xmlDocGetRootElement(doc);
	xmlChar *name = xmlGetProp(root, (const xmlChar *)"name");
	xmlChar *desc = xmlGetProp(root, (const xmlChar *)"description");
	snprintf(c->name, sizeof c->name, "%s", name ? (const char *)name : arg);
	snprintf(c->description, sizeof c->description, "%s", desc ? (const char *)desc : "");
	xmlFree(name);
	xmlFree(desc);
	for (xmlNodePtr g = root->children; g && rc == 0; g = g->next) {
		if (g->type != XML_ELEMENT_NODE)
			continue;
		for (xmlAttrPtr a = g->properties; a && rc == 0; a = a->next) {
			char key[160];
			snprintf(key, sizeof key, "%s.%s", (const char *)g->name, (const char *)a->name);
			const struct iw_param *p = iw_param_find(key);
			char where[600];
			snprintf(where, sizeof where, "%s:%d: ", origin, xml_line(g));
			if (!p) { /* the schema forbids it; kept for a schema that lags the table */
				rc = iw_fail(e, IW_EINPUT, "%sunknown configuration key %s", where, key);
				break;
			}
			xmlChar *val = xmlNodeListGetString(doc, a->children, 1);
			double v;
			rc = parse_value(p, val ? (const char *)val : "", &v, where, e);
			xmlFree(val);
			if (rc == 0)
				put(c, p, v);
		}
	}
	xmlFreeDoc(doc);
	if (rc == 0 && xml_text)
		*xml_text = text;
	else
		iw_free(text);
	iw_free(origin);
	return rc;
}

int iw_config_check(const struct iw_config *c, struct iw_err *e)
{
	if (c->max_warps % c->subcores)
		return iw_fail(e, IW_EINPUT, "sm.max_warps (%d) must be a multiple of gpu.subcores (%d)",
			       c->max_warps, c->subcores);
	if (c->max_threads && c->max_threads < c->warp_size)
		return iw_fail(e, IW_EINPUT, "sm.max_threads (%d) must hold at least one warp (%d)", c->max_threads,
			       c->warp_size);
	if (c->l1_kb && (c->l1_kb * 1024) % (c->l1_line * c->l1_assoc))
		return iw_fail(e, IW_EINPUT, "mem.l1_kb (%d KiB) must be a multiple of l1_line x l1_assoc (%d B)",
			       c->l1_kb, c->l1_line * c->l1_assoc);
	for (int u = 0; u < IW_UNIT_COUNT; u++)
		if (c->units[u] == 0)
			return iw_fail(e, IW_EINPUT, "exec.%s_units: every unit class needs at least one unit",
				       iw_unit_name[u]);
	/* loog.rrs itself is range-checked by the table; the product is not */
	if (iw_config_loog_rrs(c) > IW_LOOG_RRS_MAX)
		return iw_fail(e, IW_EINPUT,
			       "loog.rrs_factor x loog.cus (%g x %d = %u RRS entries per sub-core) must be at most %d",
			       c->loog_rrs_factor, c->loog_cus, iw_config_loog_rrs(c), IW_LOOG_RRS_MAX);
	return 0;
}

uint32_t iw_config_loog_rrs(const struct iw_config *c)
{
	if (c->loog_rrs > 0)
		return (uint32_t)c->loog_rrs;
	return (uint32_t)(c->loog_rrs_factor * (double)c->loog_cus + 0.5);
}

static void format_value(const struct iw_param *p, double v, char *buf, size_t n)
{
	size_t names = 0;
	if (p->type == IW_PT_ENUM)
		while (p->enums[names])
			names++;
	if (p->type == IW_PT_ENUM && v >= 0 && v < (double)names && v == floor(v))
		snprintf(buf, n, "%s", p->enums[(int)v]);
	else if (p->type == IW_PT_BOOL && (v == 0 || v == 1))
		snprintf(buf, n, "%s", v ? "true" : "false");
	else if (p->type == IW_PT_INT && v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, n, "%ld", (long)v);
	else
		iw_num_exact(buf, n, v); /* (shortest exact: 0.17, not 0.17000000000000001) */
}

void iw_param_format(const struct iw_param *p, double v, char *buf, size_t n) { format_value(p, v, buf, n); }

int iw_param_parse(const struct iw_param *p, const char *text, double *v, struct iw_err *e)
{
	return parse_value(p, text, v, "", e);
}

char *iw_config_to_xml(const struct iw_config *c)
{
	size_t cap = 16384, len = 0;
	char *s = iw_malloc(cap);
	if (!s)
		return NULL;
	char name[6 * sizeof c->name]; /* (each character at most an entity of 6) */
	iw_xml_text_buf(name, sizeof name, c->name);
	len += (size_t)snprintf(s + len, cap - len,
				"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
				"<gpu-config xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
				"xsi:noNamespaceSchemaLocation=\"config.xsd\" name=\"%s\">\n",
				name);
	char group[32] = "";
	for (size_t i = 0; i < iw_param_count; i++) {
		const struct iw_param *p = &iw_params[i];
		const char *dot = strchr(p->key, '.');
		size_t gl = (size_t)(dot - p->key);
		if (strlen(group) != gl || strncmp(group, p->key, gl)) {
			if (group[0])
				len += (size_t)snprintf(s + len, cap - len, "/>\n");
			snprintf(group, sizeof group, "%.*s", (int)gl, p->key);
			len += (size_t)snprintf(s + len, cap - len, "  <%s", group);
		}
		char v[64];
		format_value(p, get(c, p), v, sizeof v);
		len += (size_t)snprintf(s + len, cap - len, " %s=\"%s\"", dot + 1, v);
		if (len + 512 > cap) {
			char *ns = iw_realloc(s, cap * 2);
			if (!ns) {
				iw_free(s);
				return NULL;
			}
			s = ns;
			cap *= 2;
		}
	}
	snprintf(s + len, cap - len, "/>\n</gpu-config>\n");
	return s;
}

void iw_config_help(FILE *f)
{
	fprintf(f, "Configuration keys (XML: <GROUP KEY=\"value\"/> inside <gpu-config>; command line: --set GROUP.KEY=VALUE)\n\n");
	fprintf(f, "%-28s %-6s %-8s %-10s %-22s %s\n", "key", "type", "unit", "default", "range", "meaning");
	for (size_t i = 0; i < iw_param_count; i++) {
		const struct iw_param *p = &iw_params[i];
		char def[64], range[128];
		format_value(p, p->def, def, sizeof def);
		static const char *const tn[] = {"int", "real", "bool", "enum"};
		if (p->type == IW_PT_ENUM) {
			range[0] = 0;
			for (const char *const *q = p->enums; *q; q++)
				snprintf(range + strlen(range), sizeof range - strlen(range), "%s%s",
					 q == p->enums ? "" : "|", *q);
		} else if (p->type == IW_PT_BOOL) {
			snprintf(range, sizeof range, "true|false");
		} else {
			snprintf(range, sizeof range, "%.10g..%.10g", p->min, p->max);
		}
		fprintf(f, "%-28s %-6s %-8s %-10s %-22s %s\n", p->key, tn[p->type], *p->unit ? p->unit : "-", def,
			range, p->help);
	}
}

void iw_config_write_xsd(FILE *f)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<!-- Generated by 'issuewatt list schema' from the parameter table in perf/config.c: do not edit. -->\n"
		   "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n"
		   "  <xs:element name=\"gpu-config\">\n    <xs:complexType>\n      <xs:all>\n");
	char group[32] = "";
	for (size_t i = 0; i < iw_param_count; i++) {
		const struct iw_param *p = &iw_params[i];
		const char *dot = strchr(p->key, '.');
		size_t gl = (size_t)(dot - p->key);
		if (strlen(group) != gl || strncmp(group, p->key, gl)) {
			if (group[0])
				fprintf(f, "          </xs:complexType>\n        </xs:element>\n");
			snprintf(group, sizeof group, "%.*s", (int)gl, p->key);
			fprintf(f, "        <xs:element name=\"%s\" minOccurs=\"0\">\n          <xs:complexType>\n", group);
		}
		fprintf(f, "            <xs:attribute name=\"%s\">\n", dot + 1);
		fputs("              <xs:annotation><xs:documentation>", f);
		iw_xml_text(f, p->help);
		fprintf(f, "%s%s%s</xs:documentation></xs:annotation>\n", *p->unit ? " [" : "", p->unit, *p->unit ? "]" : "");
		fprintf(f, "              <xs:simpleType>\n");
		if (p->type == IW_PT_ENUM) {
			fprintf(f, "                <xs:restriction base=\"xs:string\">\n");
			for (const char *const *q = p->enums; *q; q++)
				fprintf(f, "                  <xs:enumeration value=\"%s\"/>\n", *q);
		} else if (p->type == IW_PT_BOOL) {
			fprintf(f, "                <xs:restriction base=\"xs:boolean\">\n");
		} else {
			fprintf(f, "                <xs:restriction base=\"%s\">\n", p->type == IW_PT_INT ? "xs:long" : "xs:double");
			if (p->type == IW_PT_INT)
				fprintf(f, "                  <xs:minInclusive value=\"%ld\"/>\n                  <xs:maxInclusive value=\"%ld\"/>\n",
					(long)p->min, (long)p->max);
			else
				fprintf(f, "                  <xs:minInclusive value=\"%.17g\"/>\n                  <xs:maxInclusive value=\"%.17g\"/>\n",
					p->min, p->max);
		}
		fprintf(f, "                </xs:restriction>\n              </xs:simpleType>\n            </xs:attribute>\n");
	}
	fprintf(f, "          </xs:complexType>\n        </xs:element>\n      </xs:all>\n"
		   "      <xs:attribute name=\"name\" type=\"xs:string\" use=\"required\"/>\n"
		   "      <xs:attribute name=\"description\" type=\"xs:string\"/>\n"
		   "    </xs:complexType>\n  </xs:element>\n</xs:schema>\n");
}

size_t iw_preset_count(void)
{
	size_t n = 0;
	for (size_t i = 0; i < iw_resource_count; i++)
		n += strncmp(iw_resources[i].name, "perf/presets/", 13) == 0;
	return n;
}

const char *iw_preset_name(size_t k)
{
	static char names[64][64];
	size_t n = 0;
	for (size_t i = 0; i < iw_resource_count; i++)
		if (strncmp(iw_resources[i].name, "perf/presets/", 13) == 0 && n++ == k) {
			const char *b = iw_resources[i].name + 13;
			snprintf(names[k % 64], sizeof names[0], "%.*s", (int)(strlen(b) - 4), b);
			return names[k % 64];
		}
	return NULL;
}
