/*
 * perf/perf.h -- the interface of the performance module: decoded instructions,
 * workload sources (Accel-Sim traces, built-in generator), the GPU/SM
 * configuration and its parameter table, the activity and stall tables, and
 * the simulation entry point.  perf/ knows nothing of joules or square
 * millimetres: it emits activity counts (Accelergy style) that power/ prices.
 */
#ifndef IW_PERF_H
#define IW_PERF_H

#include "iw.h"

/* ------------------------------------------------------------------ units */
/* Execution-unit classes (SCHEMES.md section 1).  MEM covers every memory space. */
#define IW_UNIT_TABLE(X)            \
	X(INT, "int", "integer ALU")  \
	X(SP, "sp", "FP32")           \
	X(DP, "dp", "FP64")           \
	X(SFU, "sfu", "special function") \
	X(TENSOR, "tensor", "tensor core") \
	X(MEM, "mem", "load/store")   \
	X(BRANCH, "branch", "control")
enum iw_unit {
#define X(id, name, help) IW_UNIT_##id,
	IW_UNIT_TABLE(X)
#undef X
	IW_UNIT_COUNT
};
extern const char *const iw_unit_name[IW_UNIT_COUNT];

enum iw_space { IW_SPACE_NONE, IW_SPACE_GLOBAL, IW_SPACE_LOCAL, IW_SPACE_SHARED,
		IW_SPACE_CONST, IW_SPACE_TEX, IW_SPACE_COUNT };
extern const char *const iw_space_name[IW_SPACE_COUNT];

/* Instruction properties the schemes' dependence rules need. */
enum iw_inst_flag {
	IW_F_LOAD = 1u << 0,
	IW_F_STORE = 1u << 1,
	IW_F_ATOMIC = 1u << 2,
	IW_F_BARRIER = 1u << 3,  /* BAR/SYNC: waits for the CTA's warps */
	IW_F_MEMBAR = 1u << 4,   /* memory fence: nothing memory passes it */
	IW_F_CONTROL = 1u << 5,  /* branch/jump/call/sync...: SOCGPU "stop", GhOST control */
	IW_F_RETURN = 1u << 6,   /* RET/EXIT */
	IW_F_TAKEN = 1u << 7,    /* control whose successor is not its fall-through: fetch stops */
	IW_F_PRED_BRANCH = 1u << 8, /* control that is control-dependent on the last compare */
	IW_F_SETS_PRED = 1u << 9,   /* compare (ISETP/FSETP/...): writes a predicate */
	IW_F_MASK0 = 1u << 10,      /* active mask 0: issues, no lane works */
	IW_F_CONV_SETUP = 1u << 11, /* control that only sets up convergence (BSSY, SSY, ...): never branches */
	IW_F_GENERIC = 1u << 12,    /* generic address: a trace's header windows make it shared or local */
};

#define IW_MAX_DST 4 /* Rd..Rd+3 for .128 */
#define IW_MAX_SRC 8 /* up to 4 source tokens, wide sources expand */
#define IW_REG_NONE 0xffff
#define IW_REG_RZ 255

/* Lane addresses of one memory instruction, owned by the SM's address pool. */
struct iw_mem_addrs {
	uint8_t n;            /* active lanes with an address */
	/* Non-zero: addr[i] = addr[0] + i * stride (modulo 2^64) for every lane
	 * (the tracer's address mode 1), so the memory model reads only the
	 * first cache line of the entry.  A fetch that does not know leaves it 0
	 * (the engine clears it before each fetch). */
	uint8_t strided;
	int32_t stride;       /* bytes from one lane's address to the next's, with strided */
	uint64_t addr[32];    /* with strided, only addr[0] need be there (the engine's
			       * copies of in-flight instructions' entries hold no more) */
};
/* Lane l's address (l < n), strided or not. */
static inline uint64_t iw_mem_lane(const struct iw_mem_addrs *ma, uint32_t l)
{
	return ma->strided ? ma->addr[0] + (uint64_t)l * (uint64_t)(int64_t)ma->stride : ma->addr[l];
}

/* One decoded warp instruction.  Kept small: the simulator moves these. */
struct iw_inst {
	uint32_t pc;
	uint32_t mask;        /* active lanes */
	uint16_t opcode;      /* index into the opcode table, for statistics */
	uint16_t flags;       /* enum iw_inst_flag */
	uint8_t unit;         /* enum iw_unit */
	uint8_t space;        /* enum iw_space (MEM only) */
	uint8_t ndst, nsrc;
	uint16_t dst[IW_MAX_DST]; /* architectural registers, RZ already removed */
	uint16_t src[IW_MAX_SRC];
	uint16_t mem_width;   /* bytes per lane, 0 if not memory */
	uint16_t latency;     /* enum iw_lat_class from the opcode table; not used by the engine */
	uint16_t maddr;       /* index in the SM's address pool, IW_MADDR_NONE if none */
	uint8_t mem_level;    /* no addresses (built-in workloads): where the data is found,
			       * 1 = L1, 2 = L2, 3 = DRAM, as drawn by the generator */
	uint8_t shm_k;        /* set by the engine at fetch, for a shared access with
			       * addresses: its bank conflicts (in what was padding, so
			       * that it shares the first host cache line of the engine's
			       * slot with everything the issue stages read) */
};
#define IW_MADDR_NONE 0xffff

/* --------------------------------------------------------------- workloads */
struct iw_kernel_info {
	char name[256];
	uint32_t grid[3], block[3];
	uint32_t nregs;       /* registers per thread */
	uint32_t shmem;       /* bytes per CTA */
	uint32_t binary_version;
	uint32_t tracer_version;
	uint64_t ctas;        /* grid x*y*z */
	uint32_t warps_per_cta;
	/* Where a trace defines the kernel, for messages: its file as shown and
	 * the header lines of -block dim, -nregs and -shmem (0: none, or not
	 * a trace). */
	char src[1024];
	uint32_t line_block, line_nregs, line_shmem;
};

/* A CTA handed to an SM.  The source keeps whatever it needs in `priv`. */
struct iw_cta {
	uint64_t id;          /* linear CTA index in its kernel */
	uint32_t warps;
	void *priv;
};

/* A workload is a stream of kernels, each a stream of CTAs, each CTA a set of
 * warps whose instructions are pulled one at a time.  Memory must stay bounded
 * independent of the workload's length (stream from disk, generate lazily). */
struct iw_workload;
struct iw_workload_ops {
	/* 1 = *ki filled with the next kernel, 0 = no more kernels, <0 = error */
	int (*next_kernel)(struct iw_workload *w, struct iw_kernel_info *ki, struct iw_err *e);
	/* 1 = cta filled, 0 = the kernel has no more CTAs, <0 = error */
	int (*next_cta)(struct iw_workload *w, struct iw_cta *cta, struct iw_err *e);
	/* 1 = *in filled (addresses into *ma when it is memory with addresses and
	 * ma != NULL; set ma->n = 0 otherwise), 0 = the warp has finished, <0 = error */
	int (*fetch)(struct iw_workload *w, struct iw_cta *cta, uint32_t warp, struct iw_inst *in,
		     struct iw_mem_addrs *ma, struct iw_err *e);
	void (*release_cta)(struct iw_workload *w, struct iw_cta *cta);
	void (*close)(struct iw_workload *w);
};
struct iw_workload {
	const struct iw_workload_ops *ops;
	char name[256];       /* for messages and output */
	char description[512];
};

/* Open a workload by name: a built-in kernel ("vecadd", ...), the built-in
 * set ("builtin"), or a path to an Accel-Sim trace (folder, kernelslist.g or
 * .traceg[.xz]).  `seed` drives the generator. */
int iw_workload_open(const char *spec, uint64_t seed, double scale, struct iw_workload **out,
		     struct iw_err *e);
void iw_workload_close(struct iw_workload *w);
/* Read a workload through once as a run reads it (every kernel, CTA, warp
 * and instruction, addresses too) and simulate nothing: a trace cut short or
 * bad deep inside fails here with its file:line, for a caller (the sweep)
 * that would otherwise find it runs later. */
int iw_workload_check(const char *spec, uint64_t seed, double scale, struct iw_err *e);

/* Built-in workloads (perf/workloads.c). */
struct iw_builtin_desc {
	const char *name;
	const char *description;
	int in_default_set; /* one of the kernels that "builtin" runs (not a variant) */
};
size_t iw_builtin_count(void);
const struct iw_builtin_desc *iw_builtin_get(size_t i);
int iw_builtin_open(const char *name, uint64_t seed, double scale, struct iw_workload **out,
		    struct iw_err *e);
/* A fixed program (perf/workload.c): every warp of every CTA runs `prog`
 * (copied) once; for micro-benchmarks, invariant tests and hand-derived
 * examples.  mem_level of memory instructions selects L1/L2/DRAM latency. */
int iw_program_open(const char *name, const struct iw_inst *prog, size_t n, uint32_t ctas,
		    uint32_t warps_per_cta, struct iw_workload **out, struct iw_err *e);
/* Accel-Sim traces (perf/trace.c); path is a folder, kernelslist.g or .traceg[.xz]. */
int iw_trace_open(const char *path, struct iw_workload **out, struct iw_err *e);
int iw_path_is_trace(const char *path);

/* ------------------------------------------------------------ SASS opcodes */
/* Latency classes of the opcode table, copied into iw_inst.latency by the
 * trace reader and NOT used by the engine: every instruction takes its
 * unit's exec.<unit>_latency (memory instructions add the memory model's
 * answer).  The configuration has no IMUL or CONV latency to map them to,
 * and Accel-Sim traces carry none; the class is kept as the table's record
 * of which opcodes differ, for a model that grows such keys. */
enum iw_lat_class {
	IW_LAT_UNIT = 0, /* the execution unit's configured latency */
	IW_LAT_IMUL,     /* 32-bit integer multiply on the INT pipe (pre-Volta IMUL/IMAD) */
	IW_LAT_CONV,     /* type conversion (F2F, F2I, I2F, I2I, FRND) */
	IW_LAT_MEM,      /* variable: answered by the memory model */
	IW_LAT_SYNC,     /* waits on something outside the pipeline (BAR, DEPBAR, NANOSLEEP) */
	IW_LAT_CLASS_COUNT
};
/* One row of the SASS opcode table (perf/opcodes.c), binary versions 35-90.
 * `name` is the base opcode (modifiers stripped at the first '.'). */
struct iw_opcode {
	const char *name;
	uint8_t unit;   /* enum iw_unit */
	uint8_t space;  /* enum iw_space (MEM only) */
	uint8_t lat;    /* enum iw_lat_class */
	uint16_t flags; /* enum iw_inst_flag: LOAD/STORE/ATOMIC/BARRIER/MEMBAR/CONTROL/RETURN/SETS_PRED */
	const char *help;
};
size_t iw_opcode_count(void);
const struct iw_opcode *iw_opcode_get(size_t i);
/* Index of the base opcode `name[0..len)` or -1 if the table lacks it. */
int iw_opcode_find(const char *name, size_t len);
/* Name of an iw_inst.opcode produced by a trace workload: the table's name,
 * or for an opcode the table lacks (numbered past the table, treated as INT)
 * the name seen in the trace.  "?" if unknown to both. */
const char *iw_trace_opcode_name(const struct iw_workload *w, uint16_t opcode);

/* ----------------------------------------------------------- configuration */
enum iw_ptype { IW_PT_INT, IW_PT_REAL, IW_PT_BOOL, IW_PT_ENUM };

/* One configuration key.  This table drives XML parsing, --set, --help-config,
 * the generated XSD, HDF5 provenance and sweeps (STYLE.md: one table per concept). */
struct iw_param {
	const char *key;        /* "group.name", XML <group name="value"/> */
	enum iw_ptype type;
	const char *unit;       /* "" if dimensionless */
	double def, min, max;
	const char *const *enums; /* NULL-terminated names for IW_PT_ENUM */
	size_t offset;            /* of an int or double in struct iw_config */
	const char *help;
};
extern const struct iw_param iw_params[];
extern const size_t iw_param_count;
const struct iw_param *iw_param_find(const char *key);
/* A value of key p from its text ("lrr", "true", "2.5"), range-checked, as a
 * number: an enum's or a bool's is the index of its name in p->enums (false,
 * true), the order --help-config lists them in.  Errors name the key. */
int iw_param_parse(const struct iw_param *p, const char *text, double *v, struct iw_err *e);
/* The text of value v of key p: an enum's or a bool's name, else the number
 * in full (a value that names nothing prints as a number). */
void iw_param_format(const struct iw_param *p, double v, char *buf, size_t n);

enum iw_policy { IW_POLICY_GTO, IW_POLICY_LRR, IW_POLICY_SRR };

struct iw_config {
	char name[64];
	char description[256];
	/* gpu */
	int sms, subcores;
	double clock_mhz, die_area_mm2;
	double die_area_factor; /* of the process die_area_mm2 is at (vs 45 nm) */
	/* sm */
	int max_warps, max_threads, max_ctas, regs, shmem_kb, warp_size;
	int regs_per_thread;   /* > 0: a register set per thread slot (Vortex); see iw_sm_regs */
	int reg_granularity;   /* registers per thread are allocated in multiples of this */
	/* front end and issue */
	int fetch_width, fetch_buffer, issue_width, wb_width, policy;
	int dual_issue_diff_units; /* a warp's later issue in a cycle takes another unit class */
	/* operand collection */
	int cus, rf_banks, rf_read_ports;
	/* execution: units per sub-core, latency and initiation interval per class */
	int units[IW_UNIT_COUNT], latency[IW_UNIT_COUNT], ii[IW_UNIT_COUNT];
	/* memory hierarchy */
	int l1_kb, l1_assoc, l1_line, l1_latency, l1_sectors_per_cycle;
	int l2_kb, l2_assoc, l2_latency, l2_sectors_per_cycle;
	int dram_latency, dram_sectors_per_cycle;
	int shmem_latency, shmem_banks, const_latency, tex_latency;
	/* schemes (SCHEMES.md sections 2-6) */
	int inorder_ib_size, war_scoreboard;
	int socgpu_ib_size, socgpu_release_at;
	int ghost_ib_size, ghost_isb_size, ghost_itab_size, ghost_dc_units, ghost_precise,
		ghost_tlb_check_latency;
	int loog_ib_size, loog_cus, loog_rrs, loog_mem, loog_dispatch, loog_broadcasts;
	double loog_rrs_factor;
	int ideal_window, ideal_renaming, ideal_disambiguation, ideal_fetch_through_control;
	/* run */
	int interval, fast_forward;
	int seed;
	double workload_scale;
};

/* Defaults from the table, then a preset or file, then --set overrides. */
void iw_config_defaults(struct iw_config *c);
/* Load "v100" (preset) or a path over the defaults; validates against perf/config.xsd. */
int iw_config_load(struct iw_config *c, const char *preset_or_file, char **xml_text,
		   struct iw_err *e);
/* "key=value"; range- and type-checked against the table; error names the key. */
int iw_config_set(struct iw_config *c, const char *assignment, struct iw_err *e);
int iw_config_get(const struct iw_config *c, const char *key, double *value);
/* Cross-field checks (e.g. warps a multiple of sub-cores). */
int iw_config_check(const struct iw_config *c, struct iw_err *e);
/* LOOG's RRS entries per sub-core: the most loog.rrs, and loog.rrs_factor x
 * loog.cus, may give.  The limit is the sub-core's free list, a 256-bit mask
 * (perf/scheme_loog.c).  The tags do not bind: they are 16-bit (CU ids
 * 0..63, then the RRS entries).  The run-time check had 192 = 256 - 64, the
 * RRS ids an 8-bit tag leaves beside 64 CU ids, a tag width the code never
 * had (the area model sizes tags by lg2(max(rrs, cus)) bits). */
#define IW_LOOG_RRS_MAX 256
/* The RRS entries per sub-core: loog.rrs, or else rrs_factor x cus rounded. */
uint32_t iw_config_loog_rrs(const struct iw_config *c);
/* An SM's thread slots and register file as the model uses them: with
 * sm.max_threads = 0 the warp slots are the only limit (max_warps x
 * warp_size, as Vortex), and with sm.regs_per_thread > 0 every thread slot
 * has its own registers (Vortex: 32 integer + 32 FP), so a sweep over warps x
 * threads resizes both. */
static inline int iw_sm_threads(const struct iw_config *c)
{
	return c->max_threads ? c->max_threads : c->max_warps * c->warp_size;
}
static inline int iw_sm_regs(const struct iw_config *c)
{
	return c->regs_per_thread ? c->max_warps * c->warp_size * c->regs_per_thread : c->regs;
}
/* Can an SM of configuration c hold one CTA of kernel k (warps, thread
 * slots, registers, shared memory)?  0, and the CTA's warps in *cta_warps
 * (whole warps of c's width; a workload's own count wins), or -IW_EINPUT
 * naming the workload, the kernel and both sides.  The simulator checks each
 * kernel as it starts; `run` checks them all before simulating. */
int iw_kernel_fits(const struct iw_config *c, const char *workload, const struct iw_kernel_info *k,
		   uint32_t *cta_warps, struct iw_err *e);
/* The configuration as XML (for provenance); caller frees. */
char *iw_config_to_xml(const struct iw_config *c);
/* --help-config text and the XSD, both generated from iw_params. */
void iw_config_help(FILE *f);
void iw_config_write_xsd(FILE *f);
size_t iw_preset_count(void);
const char *iw_preset_name(size_t i); /* "v100", ... from the embedded presets */

/* -------------------------------------------------------------- activities */
/* Every structure the issue schemes and the shared SM use (MODELS.md), and
 * every action counted on it.  Names are "structure.action"; the same names
 * key the technology file's energy table and the HDF5 datasets. */
#define IW_STRUCT_TABLE(X)                                                        \
	X(FETCH, "fetch", "instruction fetch and decode")                          \
	X(IB, "ib", "instruction buffer (per warp)")                               \
	X(SB, "sb", "scoreboard (RAW/WAW, and WAR when enabled)")                  \
	X(SCHED, "sched", "warp scheduler select logic")                           \
	X(DM, "dm", "SOCGPU dependence matrix and ready logic")                    \
	X(DC, "dc", "GhOST dependence checker")                                    \
	X(ISB, "isb", "GhOST issue buffer")                                        \
	X(ITAB, "itab", "GhOST instruction table and scheduler select")            \
	X(RAT, "rat", "LOOG register alias table")                                 \
	X(CU, "cu", "collector units (operand buffers / reservation stations)")    \
	X(RRS, "rrs", "LOOG register renaming stack")                              \
	X(BCAST, "bcast", "result broadcast bus")                                  \
	X(RF, "rf", "register-file banks")                                         \
	X(FU, "fu", "execution units")                                             \
	X(L1, "l1", "L1 data cache")                                               \
	X(SHMEM, "shmem", "shared memory")                                         \
	X(L2, "l2", "L2 cache")                                                    \
	X(DRAM, "dram", "DRAM")                                                    \
	X(NOC, "noc", "interconnect SM-L2")                                        \
	X(CONST, "const", "constant and texture caches")
enum iw_struct {
#define X(id, name, help) IW_S_##id,
	IW_STRUCT_TABLE(X)
#undef X
	IW_S_COUNT
};
struct iw_struct_desc {
	const char *name, *help;
};
extern const struct iw_struct_desc iw_structs[IW_S_COUNT];

/* Structure names as literals, so activity names are built at compile time. */
#define IW_SNAME_FETCH "fetch"
#define IW_SNAME_IB "ib"
#define IW_SNAME_SB "sb"
#define IW_SNAME_SCHED "sched"
#define IW_SNAME_DM "dm"
#define IW_SNAME_DC "dc"
#define IW_SNAME_ISB "isb"
#define IW_SNAME_ITAB "itab"
#define IW_SNAME_RAT "rat"
#define IW_SNAME_CU "cu"
#define IW_SNAME_RRS "rrs"
#define IW_SNAME_BCAST "bcast"
#define IW_SNAME_RF "rf"
#define IW_SNAME_FU "fu"
#define IW_SNAME_L1 "l1"
#define IW_SNAME_SHMEM "shmem"
#define IW_SNAME_L2 "l2"
#define IW_SNAME_DRAM "dram"
#define IW_SNAME_NOC "noc"
#define IW_SNAME_CONST "const"

/* X(ID, structure, "action", unit of the count, help) */
#define IW_ACT_TABLE(X)                                                                      \
	X(FETCH_INST, FETCH, "inst", "warp-inst", "instruction fetched and decoded")          \
	X(IB_WRITE, IB, "write", "entry", "instruction written into an IB entry")               \
	X(IB_READ, IB, "read", "entry", "IB entry read at issue")                               \
	X(SB_CHECK, SB, "check", "inst", "scoreboard checked for one candidate")               \
	X(SB_SET, SB, "set", "reg", "scoreboard bit set (destination reserved)")                \
	X(SB_CLEAR, SB, "clear", "reg", "scoreboard bit cleared at write-back")                 \
	X(SB_WAR_SET, SB, "war_set", "reg", "WAR scoreboard bit set at issue")                  \
	X(SB_WAR_CLEAR, SB, "war_clear", "reg", "WAR scoreboard bit cleared")                   \
	X(SCHED_SELECT, SCHED, "select", "cycle", "warp scheduler arbitration with a candidate")\
	X(DM_ROW_WRITE, DM, "row_write", "row", "dependence-matrix row written at insert")      \
	X(DM_COL_CLEAR, DM, "col_clear", "column", "dependence-matrix column cleared")           \
	X(DM_READY_EVAL, DM, "ready_eval", "warp-cycle", "ready (row NOR) evaluation of a warp")\
	X(DC_CHECK, DC, "check", "inst", "instruction checked by the dependence checker")       \
	X(DC_COMPARE, DC, "compare", "entry", "checker compare against one IsB entry")          \
	X(ISB_WRITE, ISB, "write", "entry", "IsB entry written")                                \
	X(ISB_READ, ISB, "read", "entry", "IsB entry read")                                     \
	X(ISB_DEP_CLEAR, ISB, "dep_clear", "inst", "IB-dep bit cleared in a warp's vectors")    \
	X(ISB_AGE_UPDATE, ISB, "age_update", "inst", "age indices decremented")                 \
	X(ITAB_WRITE, ITAB, "write", "entry", "ITab entry written by the GhOST scheduler")       \
	X(ITAB_READ, ITAB, "read", "entry", "ITab entry read by the warp scheduler")            \
	X(ITAB_SELECT, ITAB, "select", "cycle", "GhOST scheduler select")                       \
	X(RAT_READ, RAT, "read", "reg", "RAT lookup of a source")                               \
	X(RAT_WRITE, RAT, "write", "reg", "RAT update (rename or return to RF)")                \
	X(CU_ALLOC, CU, "alloc", "cu", "collector unit allocated")                              \
	X(CU_OPERAND_WRITE, CU, "operand_write", "operand", "operand written into a CU")        \
	X(CU_TAG_COMPARE, CU, "tag_compare", "compare", "CU tag CAM comparison on broadcast")   \
	X(CU_DISPATCH, CU, "dispatch", "inst", "CU dispatched to a unit")                       \
	X(RRS_ALLOC, RRS, "alloc", "entry", "RRS entry allocated")                              \
	X(RRS_WRITE, RRS, "write", "entry", "result written into the RRS")                      \
	X(RRS_READ, RRS, "read", "entry", "result read from the RRS")                           \
	X(BCAST_SEND, BCAST, "send", "result", "result broadcast")                              \
	X(RF_BANK_READ, RF, "bank_read", "operand", "register-file bank read (one warp operand)")\
	X(RF_BANK_WRITE, RF, "bank_write", "result", "register-file bank write")                \
	X(RF_BANK_CONFLICT, RF, "bank_conflict", "cycle", "read delayed by a bank conflict")    \
	X(FU_INT_OP, FU, "int_op", "lane-op", "integer lane operation")                         \
	X(FU_SP_OP, FU, "sp_op", "lane-op", "FP32 lane operation")                              \
	X(FU_DP_OP, FU, "dp_op", "lane-op", "FP64 lane operation")                              \
	X(FU_SFU_OP, FU, "sfu_op", "lane-op", "special-function lane operation")                \
	X(FU_TENSOR_OP, FU, "tensor_op", "lane-op", "tensor-core lane operation")               \
	X(FU_MEM_OP, FU, "mem_op", "lane-op", "address generation per lane")                    \
	X(FU_BRANCH_OP, FU, "branch_op", "warp-inst", "branch unit operation")                  \
	X(L1_ACCESS, L1, "access", "sector", "L1 access")                                       \
	X(L1_HIT, L1, "hit", "sector", "L1 hit")                                                \
	X(L1_MISS, L1, "miss", "sector", "L1 miss")                                             \
	X(SHMEM_ACCESS, SHMEM, "access", "warp-access", "shared-memory access")                  \
	X(SHMEM_CONFLICT, SHMEM, "conflict", "cycle", "extra cycle from a bank conflict")       \
	X(SHMEM_WAVEFRONT, SHMEM, "wavefront", "cycle", "extra cycle of an access wider than a wavefront") \
	X(L2_ACCESS, L2, "access", "sector", "L2 access")                                       \
	X(L2_HIT, L2, "hit", "sector", "L2 hit")                                                \
	X(L2_MISS, L2, "miss", "sector", "L2 miss")                                             \
	X(DRAM_ACCESS, DRAM, "access", "sector", "DRAM sector transfer")                        \
	X(NOC_FLIT, NOC, "flit", "sector", "sector crossing the interconnect")                  \
	X(CONST_ACCESS, CONST, "access", "warp-access", "constant/texture access")
enum iw_act {
#define X(id, s, action, unit, help) IW_A_##id,
	IW_ACT_TABLE(X)
#undef X
	IW_A_COUNT
};
struct iw_act_desc {
	const char *id;     /* "DM_ROW_WRITE" */
	enum iw_struct structure;
	const char *unit, *help;
};
extern const struct iw_act_desc iw_acts[IW_A_COUNT];
const char *iw_act_name(int act); /* "dm.row_write" */
int iw_act_find(const char *name); /* index or -1 */

/* Why a scheduler issued nothing in a cycle (SCHEMES.md section 7). */
#define IW_STALL_TABLE(X)                                         \
	X(IDLE, "idle", "no warp resident")                         \
	X(RAW, "raw", "oldest candidate waits for a result")        \
	X(WAR_WAW, "war_waw", "WAR or WAW hazard")                  \
	X(CONTROL, "control", "waiting for a control instruction")  \
	X(MEM_ORDER, "mem_order", "memory ordering rule")          \
	X(BARRIER, "barrier", "waiting at a CTA barrier")          \
	X(FU_BUSY, "fu_busy", "execution unit busy")                \
	X(NO_CU, "no_cu", "no free collector unit")                 \
	X(NO_RRS, "no_rrs", "no free RRS entry")                    \
	X(IB_FULL, "ib_full", "front end blocked by a full buffer")  \
	X(IB_EMPTY, "ib_empty", "no decoded instruction")
enum iw_stall {
#define X(id, name, help) IW_STALL_##id,
	IW_STALL_TABLE(X)
#undef X
	IW_STALL_COUNT
};
extern const char *const iw_stall_name[IW_STALL_COUNT];

/* ------------------------------------------------------------------- runs */
#define IW_REORDER_BINS 33 /* distance 1..32, last bin = 33 or more */
#define IW_HIST_BINS 64    /* allocation periods: bin i = [2^(i/4)...) log-spaced */

/* Counters every scheme reports (SCHEMES.md section 7). */
struct iw_counters {
	uint64_t stall[IW_STALL_COUNT];          /* scheduler-cycles */
	uint64_t reorders;                        /* issued ahead of an older unissued instruction */
	uint64_t reorder_dist[IW_REORDER_BINS];   /* how many older ones it passed */
	uint64_t deps_found[4];                   /* at insertion: war_waw, raw, stop/control, memory */
	uint64_t flushes;                         /* fetch stops at taken control */
	uint64_t mask0_insts;
	uint64_t rf_reads, rf_writes, rf_reads_saved_bcast, rf_writes_saved_rename;
	/* occupancy integrals (entry-cycles), for utilisation with the
	 * capacities in iw_run_result.entries (kept out of this struct: every
	 * field here is a simulated count, and the pinned fingerprints hash it) */
	uint64_t ib_occ, isb_occ, cu_occ, rrs_occ;
	uint64_t cu_alloc_period[IW_HIST_BINS];   /* histogram of CU allocation periods, cycles */
	uint64_t rrs_alloc_period[IW_HIST_BINS];
	uint64_t no_cu_stall_len[IW_HIST_BINS];   /* lengths of runs of no_cu stalls */
};

/* The structures whose occupancy a run integrates (cnt.ib_occ, isb_occ,
 * cu_occ, rrs_occ, in this order). */
enum iw_occ { IW_OCC_IB, IW_OCC_ISB, IW_OCC_CU, IW_OCC_RRS, IW_OCC_COUNT };
extern const char *const iw_occ_name[IW_OCC_COUNT]; /* "ib", "isb", "cu", "rrs" */

/* Activity time series: samples of `interval` cycles.  To keep memory bounded
 * whatever the run length, once `cap` samples are held adjacent pairs merge
 * and the interval doubles (so long runs get coarser, never larger). */
struct iw_series {
	uint64_t interval;    /* cycles per sample */
	size_t n, cap;
	uint64_t *act;        /* n x IW_A_COUNT */
	uint64_t *insts;      /* n: warp-instructions retired */
	uint64_t *cycles;     /* n: cycles in the sample (last may be partial) */
};

/* One kernel of a run (Accel-Sim's per-kernel gpu_sim_cycle and
 * gpu_sim_insn).  Kernels run one after another: the first occupies cycles
 * 0 .. cycles - 1, each next one starts the cycle after the one before it
 * ended (its CTAs launch in that one's last cycle), so the kernels' cycles
 * add up to the run's.  The layout is also the HDF5 record (reports/h5out.c:
 * name and the members of iw_kstat_fields). */
struct iw_kernel_stat {
	char name[256];
	uint64_t ctas;
	uint64_t start;       /* first cycle */
	uint64_t cycles;      /* 0 for a kernel without CTAs */
	uint64_t warp_insts;
	double ipc;           /* warp_insts / cycles (0 without cycles) */
	double sm_busy_mean;  /* as the run's, over this kernel only */
	/* The kernel priced alone (its activities, cycles, idle scheduler-cycles
	 * and lanes) by the caller's on_kernel hook (reports/ prices it with
	 * power/); NaN if no hook priced it.  power/ prices the run's active-SM
	 * static power kernel by kernel too (from the counts below), so the
	 * kernels' energies add up to the run's. */
	double energy_j, avg_power_w;
	/* their standard errors from the technology file's coefficient errors
	 * (0 without any; NaN if unpriced) */
	double energy_j_se, avg_power_w_se;
	/* Not output (after iw_kstat_fields' members): the kernel's active
	 * threads summed over its warp-instructions, and its scheduler-cycles
	 * with no resident warp (stall reason idle), with or without a hook. */
	uint64_t thread_insts, idle_sched_cycles;
	/* its activity counts (power/ picks AccelWattch's static-power
	 * category from the units it used) */
	uint64_t act[IW_A_COUNT];
};
/* Its numeric fields by name, in output order: the CSV's and JSON's keys and
 * the HDF5 record's members after `name` (one table for every output). */
struct iw_kstat_field {
	const char *name;
	size_t offset;        /* in struct iw_kernel_stat */
	int is_double;        /* else uint64_t */
	const char *unit;
};
#define IW_KSTAT_FIELDS 10
extern const struct iw_kstat_field iw_kstat_fields[IW_KSTAT_FIELDS];
static inline double iw_kstat_get(const struct iw_kernel_stat *k, int f)
{
	const char *p = (const char *)k + iw_kstat_fields[f].offset;
	if (iw_kstat_fields[f].is_double)
		return *(const double *)(const void *)p;
	return (double)*(const uint64_t *)(const void *)p;
}

struct iw_run_result {
	char scheme[32];
	char workload[256];
	uint64_t cycles, warp_insts, thread_insts, kernels, ctas;
	double ipc;           /* warp-instructions per cycle, whole GPU */
	/* Mean over all the SMs of the cycles each was busy: per kernel, from
	 * the cycle its first CTA launched to the cycle its last CTA finished
	 * (an SM without work counts 0: a trace of one CTA on 80 SMs is busy
	 * 1/80 of its cycles on average).  A
	 * kernel lasts as long as its slowest SM, whose finish moves by a percent
	 * or two with small timing changes (memory contention): this mean, the
	 * GPU's throughput, moves far less. */
	double sm_busy_mean;
	uint64_t act[IW_A_COUNT];
	struct iw_counters cnt;
	/* The entries each occupancy integral counts, in the whole GPU (IB and
	 * IsB: per warp slot x sm.max_warps x SMs; CUs and RRS: per sub-core x
	 * sub-cores x SMs); 0 for a structure the scheme has not. */
	uint64_t entries[IW_OCC_COUNT];
	struct iw_series series;
	/* one per kernel, in launch order (nkstats == kernels after a whole run) */
	struct iw_kernel_stat *kstats;
	size_t nkstats;
	/* The caller's per-kernel values, attached after the run (reports/: each
	 * kernel's change of energy per coefficient with a standard error,
	 * ksens[k * nksens + c]); NULL for none, freed with the result. */
	double *ksens;
	size_t nksens;
	double sim_seconds;   /* host time, informative only */
	uint64_t host_ticks;  /* sub-core ticks the engine ran: the host's work, about proportional (informative) */
};
void iw_run_result_free(struct iw_run_result *r);
/* The mean fraction of structure k's entries held over the run, in [0, 1]:
 * its occupancy integral / (entries x cycles); NaN without entries. */
double iw_utilisation(const struct iw_run_result *r, int k);

/* Optional per-instruction event log (for the tests' independent oracle).
 * IW_EV_READ is an instruction's last operand read (`sub`: its collector
 * unit).  IW_EV_OPERAND is one register read from the RF, `sub` the register:
 * only a scheme whose WAR guard lets a younger result in once the register
 * itself was read (LOOG, SCHEMES.md 5) logs each, since then the cycle of
 * every read matters, not only the last. */
enum iw_event_kind { IW_EV_INSERT, IW_EV_ISSUE, IW_EV_READ, IW_EV_DISPATCH, IW_EV_WRITEBACK,
		     IW_EV_RETIRE, IW_EV_OPERAND };
struct iw_event {
	uint64_t cycle;
	uint32_t sm, warp;    /* warp slot in the SM */
	uint64_t seq;         /* per-warp dynamic instruction number */
	uint64_t cta;
	uint8_t kind;
	uint8_t sub;          /* e.g. the CU or RRS entry used */
	const struct iw_inst *inst;
};
typedef void (*iw_event_fn)(void *ctx, const struct iw_event *ev);

/* Schemes (perf/scheme_*.c) by name; "all" is resolved by the caller. */
size_t iw_scheme_count(void);
const char *iw_scheme_name(size_t i);
const char *iw_scheme_help(size_t i);
int iw_scheme_find(const char *name); /* index or -1 */

struct iw_sim_opts {
	const struct iw_config *cfg;
	const char *scheme;
	iw_event_fn on_event; /* NULL for none */
	void *event_ctx;
	/* Non-zero: tick the GPU cycle after cycle (the reference order) rather
	 * than SM after SM over short spans; the results are the same. */
	int cycle_major;
	/* Called at each kernel's end with the kernel's own counts as a run
	 * (cycles, instructions, activities, stall breakdown; no series) and its
	 * record, whose energy_j and avg_power_w it may fill (NULL: left NaN). */
	void (*on_kernel)(void *ctx, const struct iw_run_result *kernel, struct iw_kernel_stat *k);
	void *kernel_ctx;
};
/* Simulate the whole workload with one scheme.  Reentrant: all state hangs off
 * one context, so runs can go in parallel threads or processes. */
int iw_simulate(const struct iw_sim_opts *o, struct iw_workload *w, struct iw_run_result *r,
		struct iw_err *e);

#endif
