/*
 * perf/opcodes.c -- the SASS opcode table, Kepler (binary version 35) to
 * Hopper (90): base opcode -> execution-unit class, memory space, the
 * properties the issue schemes' dependence rules need, latency class (a
 * record only: the engine times every instruction by its unit, perf.h).
 *
 * Sources: NVIDIA "CUDA Binary Utilities" instruction-set reference (Kepler,
 * Maxwell/Pascal, Volta, Turing, Ampere/Ada, Hopper tables) for the opcode
 * names and what they do; Accel-Sim's trace_opcode.h for the unit each
 * opcode is simulated on.  Where they differ we follow the hardware the
 * reference describes (e.g. conversions on the quarter-rate XU/SFU path,
 * tensor-core MMA ops on TENSOR, uniform-datapath U* ops on INT).
 *
 * An opcode missing here is not an error: the trace reader counts it, warns
 * once per opcode with its count, and treats it as INT (Accel-Sim aborts on
 * unknown opcodes, which users of new GPUs run into first).
 *
 * To extend: add one row.  Names must be unique (a test checks).
 */
#include "perf.h"

#include <string.h>

#define F_LD IW_F_LOAD
#define F_ST IW_F_STORE
#define F_AT IW_F_ATOMIC
#define F_BAR IW_F_BARRIER
#define F_MB IW_F_MEMBAR
#define F_CT IW_F_CONTROL
#define F_RET IW_F_RETURN
#define F_SP IW_F_SETS_PRED
#define F_CS IW_F_CONV_SETUP
#define F_GN IW_F_GENERIC

#define R(name, unit, space, lat, flags, help) \
	{name, IW_UNIT_##unit, IW_SPACE_##space, IW_LAT_##lat, (uint16_t)(flags), help}

static const struct iw_opcode table[] = {
	/* ---- integer ALU (and the Turing+ uniform datapath, which issues like INT) */
	R("IADD", INT, NONE, UNIT, 0, "integer add"),
	R("IADD3", INT, NONE, UNIT, 0, "3-input integer add"),
	R("IADD32I", INT, NONE, UNIT, 0, "integer add, 32-bit immediate"),
	R("VIADD", INT, NONE, UNIT, 0, "integer add (Hopper)"),
	R("IMAD", INT, NONE, UNIT, 0, "integer multiply-add (full rate from Volta on)"),
	R("IMAD32I", INT, NONE, IMUL, 0, "integer multiply-add, immediate"),
	R("IMADSP", INT, NONE, IMUL, 0, "extracted integer multiply-add"),
	R("IMUL", INT, NONE, IMUL, 0, "integer multiply"),
	R("IMUL32I", INT, NONE, IMUL, 0, "integer multiply, immediate"),
	R("XMAD", INT, NONE, UNIT, 0, "16x16-bit integer multiply-add (Maxwell/Pascal)"),
	R("IMNMX", INT, NONE, UNIT, 0, "integer min/max"),
	R("VIMNMX", INT, NONE, UNIT, 0, "integer min/max (Hopper)"),
	R("VIMNMX3", INT, NONE, UNIT, 0, "3-input integer min/max"),
	R("VIADDMNMX", INT, NONE, UNIT, 0, "integer add then min/max"),
	R("IABS", INT, NONE, UNIT, 0, "integer absolute value"),
	R("ISAD", INT, NONE, UNIT, 0, "sum of absolute differences"),
	R("ISCADD", INT, NONE, UNIT, 0, "scaled integer add"),
	R("ISCADD32I", INT, NONE, UNIT, 0, "scaled integer add, immediate"),
	R("ISET", INT, NONE, UNIT, 0, "integer compare and set"),
	R("ISETP", INT, NONE, UNIT, F_SP, "integer compare, set predicate"),
	R("ICMP", INT, NONE, UNIT, 0, "integer compare and select"),
	R("IDP", INT, NONE, UNIT, 0, "integer dot product"),
	R("IDP4A", INT, NONE, UNIT, 0, "4-way integer dot product"),
	R("LEA", INT, NONE, UNIT, 0, "load effective address"),
	R("LOP", INT, NONE, UNIT, 0, "logic operation"),
	R("LOP3", INT, NONE, UNIT, 0, "3-input logic operation"),
	R("LOP32I", INT, NONE, UNIT, 0, "logic operation, immediate"),
	R("SHF", INT, NONE, UNIT, 0, "funnel shift"),
	R("SHL", INT, NONE, UNIT, 0, "shift left"),
	R("SHR", INT, NONE, UNIT, 0, "shift right"),
	R("BFE", INT, NONE, UNIT, 0, "bit-field extract"),
	R("BFI", INT, NONE, UNIT, 0, "bit-field insert"),
	R("BMSK", INT, NONE, UNIT, 0, "bit-field mask"),
	R("SGXT", INT, NONE, UNIT, 0, "sign extend"),
	R("PRMT", INT, NONE, UNIT, 0, "byte permute"),
	R("SEL", INT, NONE, UNIT, 0, "select by predicate"),
	R("MOV", INT, NONE, UNIT, 0, "move"),
	R("MOV32I", INT, NONE, UNIT, 0, "move immediate"),
	R("MOVM", INT, NONE, UNIT, 0, "move matrix with transpose"),
	R("SHFL", INT, NONE, UNIT, 0, "warp shuffle"),
	R("S2R", INT, NONE, UNIT, 0, "special register to register"),
	R("S2UR", INT, NONE, UNIT, 0, "special register to uniform register"),
	R("CS2R", INT, NONE, UNIT, 0, "special register to register, fast"),
	R("R2P", INT, NONE, UNIT, 0, "register to predicates"),
	R("P2R", INT, NONE, UNIT, 0, "predicates to register"),
	R("R2UR", INT, NONE, UNIT, 0, "register to uniform register"),
	R("PSET", INT, NONE, UNIT, 0, "combine predicates, set register"),
	R("PSETP", INT, NONE, UNIT, F_SP, "combine predicates, set predicate"),
	R("PLOP3", INT, NONE, UNIT, F_SP, "predicate logic"),
	R("CSET", INT, NONE, UNIT, 0, "condition-code set"),
	R("CSETP", INT, NONE, UNIT, F_SP, "condition-code set predicate"),
	R("VOTE", INT, NONE, UNIT, 0, "warp vote"),
	R("VOTEU", INT, NONE, UNIT, 0, "warp vote to uniform register"),
	R("MATCH", INT, NONE, UNIT, 0, "match register values across the warp"),
	R("REDUX", INT, NONE, UNIT, 0, "warp-wide reduction to a uniform register"),
	R("ELECT", INT, NONE, UNIT, 0, "elect a leader lane"),
	R("POPC", INT, NONE, UNIT, 0, "population count"),
	R("FLO", INT, NONE, UNIT, 0, "find leading one"),
	R("BREV", INT, NONE, UNIT, 0, "bit reverse"),
	R("VABSDIFF", INT, NONE, UNIT, 0, "video absolute difference"),
	R("VABSDIFF4", INT, NONE, UNIT, 0, "video absolute difference, 4-way"),
	R("VADD", INT, NONE, UNIT, 0, "video add"),
	R("VMAD", INT, NONE, UNIT, 0, "video multiply-add"),
	R("VMNMX", INT, NONE, UNIT, 0, "video min/max"),
	R("VSET", INT, NONE, UNIT, 0, "video compare and set"),
	R("VSETP", INT, NONE, UNIT, F_SP, "video compare, set predicate"),
	R("VSHL", INT, NONE, UNIT, 0, "video shift left"),
	R("VSHR", INT, NONE, UNIT, 0, "video shift right"),
	R("NOP", INT, NONE, UNIT, 0, "no operation"),
	R("LEPC", INT, NONE, UNIT, 0, "load effective PC"),
	R("B2R", INT, NONE, UNIT, 0, "barrier state to register"),
	R("R2B", INT, NONE, UNIT, 0, "register to barrier state"),
	R("BMOV", INT, NONE, UNIT, 0, "move convergence-barrier state"),
	R("RPCMOV", INT, NONE, UNIT, 0, "move return PC"),
	R("GETLMEMBASE", INT, NONE, UNIT, 0, "local memory base"),
	R("SETLMEMBASE", INT, NONE, UNIT, 0, "set local memory base"),
	R("PMTRIG", INT, NONE, UNIT, 0, "performance-monitor trigger"),
	R("CSMTEST", INT, NONE, UNIT, 0, "clip-state machine test"),
	R("USETMAXREG", INT, NONE, SYNC, 0, "release/request registers (Hopper)"),
	R("PREEXIT", INT, NONE, UNIT, 0, "dependent-task launch hint"),
	R("DEPBAR", INT, NONE, SYNC, 0, "wait on a dependence-barrier scoreboard"),
	R("LDGDEPBAR", INT, NONE, SYNC, 0, "LDGSTS dependence barrier"),
	R("NANOSLEEP", INT, NONE, SYNC, 0, "sleep"),
	R("UMOV", INT, NONE, UNIT, 0, "uniform move"),
	R("UIADD3", INT, NONE, UNIT, 0, "uniform 3-input add"),
	R("UIMAD", INT, NONE, UNIT, 0, "uniform multiply-add"),
	R("UISETP", INT, NONE, UNIT, F_SP, "uniform compare, set predicate"),
	R("ULOP", INT, NONE, UNIT, 0, "uniform logic"),
	R("ULOP3", INT, NONE, UNIT, 0, "uniform 3-input logic"),
	R("ULOP32I", INT, NONE, UNIT, 0, "uniform logic, immediate"),
	R("USHF", INT, NONE, UNIT, 0, "uniform funnel shift"),
	R("USHL", INT, NONE, UNIT, 0, "uniform shift left"),
	R("USHR", INT, NONE, UNIT, 0, "uniform shift right"),
	R("USEL", INT, NONE, UNIT, 0, "uniform select"),
	R("ULEA", INT, NONE, UNIT, 0, "uniform effective address"),
	R("UCLEA", INT, NONE, UNIT, 0, "uniform constant effective address"),
	R("UPOPC", INT, NONE, UNIT, 0, "uniform population count"),
	R("UFLO", INT, NONE, UNIT, 0, "uniform find leading one"),
	R("UBREV", INT, NONE, UNIT, 0, "uniform bit reverse"),
	R("UBMSK", INT, NONE, UNIT, 0, "uniform bit-field mask"),
	R("UPRMT", INT, NONE, UNIT, 0, "uniform byte permute"),
	R("USGXT", INT, NONE, UNIT, 0, "uniform sign extend"),
	R("UP2UR", INT, NONE, UNIT, 0, "uniform predicates to uniform register"),
	R("UR2UP", INT, NONE, UNIT, 0, "uniform register to uniform predicates"),
	R("UPLOP3", INT, NONE, UNIT, F_SP, "uniform predicate logic"),
	R("UPSETP", INT, NONE, UNIT, F_SP, "uniform predicate set"),
	R("UVIADD", INT, NONE, UNIT, 0, "uniform add (Hopper)"),
	R("UVIMNMX", INT, NONE, UNIT, 0, "uniform min/max (Hopper)"),
	/* ---- FP32 and half precision (the FMA pipes) */
	R("FADD", SP, NONE, UNIT, 0, "FP32 add"),
	R("FADD32I", SP, NONE, UNIT, 0, "FP32 add, immediate"),
	R("FMUL", SP, NONE, UNIT, 0, "FP32 multiply"),
	R("FMUL32I", SP, NONE, UNIT, 0, "FP32 multiply, immediate"),
	R("FFMA", SP, NONE, UNIT, 0, "FP32 fused multiply-add"),
	R("FFMA32I", SP, NONE, UNIT, 0, "FP32 fused multiply-add, immediate"),
	R("FMNMX", SP, NONE, UNIT, 0, "FP32 min/max"),
	R("FSET", SP, NONE, UNIT, 0, "FP32 compare and set"),
	R("FSETP", SP, NONE, UNIT, F_SP, "FP32 compare, set predicate"),
	R("FCMP", SP, NONE, UNIT, 0, "FP32 compare and select"),
	R("FSEL", SP, NONE, UNIT, 0, "FP32 select"),
	R("FSWZ", SP, NONE, UNIT, 0, "FP32 swizzle"),
	R("FSWZADD", SP, NONE, UNIT, 0, "FP32 swizzle add"),
	R("FCHK", SP, NONE, UNIT, F_SP, "FP32 division range check"),
	R("F2FP", SP, NONE, UNIT, 0, "FP32 pair to packed half/bfloat16"),
	R("I2FP", SP, NONE, UNIT, 0, "integer to FP32 on the FMA pipe (Ampere)"),
	R("F2IP", SP, NONE, UNIT, 0, "FP32 to packed integer"),
	R("HADD2", SP, NONE, UNIT, 0, "FP16x2 add"),
	R("HADD2_32I", SP, NONE, UNIT, 0, "FP16x2 add, immediate"),
	R("HMUL2", SP, NONE, UNIT, 0, "FP16x2 multiply"),
	R("HMUL2_32I", SP, NONE, UNIT, 0, "FP16x2 multiply, immediate"),
	R("HFMA2", SP, NONE, UNIT, 0, "FP16x2 fused multiply-add"),
	R("HFMA2_32I", SP, NONE, UNIT, 0, "FP16x2 fused multiply-add, immediate"),
	R("HMNMX2", SP, NONE, UNIT, 0, "FP16x2 min/max"),
	R("HSET2", SP, NONE, UNIT, 0, "FP16x2 compare and set"),
	R("HSETP2", SP, NONE, UNIT, F_SP, "FP16x2 compare, set predicate"),
	/* ---- FP64 */
	R("DADD", DP, NONE, UNIT, 0, "FP64 add"),
	R("DMUL", DP, NONE, UNIT, 0, "FP64 multiply"),
	R("DFMA", DP, NONE, UNIT, 0, "FP64 fused multiply-add"),
	R("DMNMX", DP, NONE, UNIT, 0, "FP64 min/max"),
	R("DSET", DP, NONE, UNIT, 0, "FP64 compare and set"),
	R("DSETP", DP, NONE, UNIT, F_SP, "FP64 compare, set predicate"),
	/* ---- special functions and conversions (MUFU/XU quarter-rate path) */
	R("MUFU", SFU, NONE, UNIT, 0, "multi-function (rcp, rsq, sin, cos, ex2, lg2)"),
	R("RRO", SFU, NONE, UNIT, 0, "range reduction for MUFU (pre-Volta)"),
	R("F2F", SFU, NONE, CONV, 0, "float to float conversion"),
	R("F2I", SFU, NONE, CONV, 0, "float to integer conversion"),
	R("I2F", SFU, NONE, CONV, 0, "integer to float conversion"),
	R("I2I", SFU, NONE, CONV, 0, "integer to integer conversion"),
	R("FRND", SFU, NONE, CONV, 0, "round to integer"),
	R("IPA", SFU, NONE, UNIT, 0, "interpolate attribute"),
	/* ---- tensor cores */
	R("HMMA", TENSOR, NONE, UNIT, 0, "half-precision matrix multiply-accumulate"),
	R("IMMA", TENSOR, NONE, UNIT, 0, "integer matrix multiply-accumulate"),
	R("BMMA", TENSOR, NONE, UNIT, 0, "binary matrix multiply-accumulate"),
	R("DMMA", TENSOR, NONE, UNIT, 0, "FP64 matrix multiply-accumulate"),
	R("QMMA", TENSOR, NONE, UNIT, 0, "FP8 matrix multiply-accumulate"),
	R("HGMMA", TENSOR, NONE, UNIT, 0, "warpgroup half-precision MMA (Hopper)"),
	R("IGMMA", TENSOR, NONE, UNIT, 0, "warpgroup integer MMA (Hopper)"),
	R("BGMMA", TENSOR, NONE, UNIT, 0, "warpgroup binary MMA (Hopper)"),
	R("QGMMA", TENSOR, NONE, UNIT, 0, "warpgroup FP8 MMA (Hopper)"),
	/* ---- global, generic and local memory */
	R("LDG", MEM, GLOBAL, MEM, F_LD, "load from global memory"),
	R("STG", MEM, GLOBAL, MEM, F_ST, "store to global memory"),
	/* generic addresses (F_GN): GLOBAL unless the trace reader finds the
	 * first active lane in the header's shared or local window */
	R("LD", MEM, GLOBAL, MEM, F_LD | F_GN, "load, generic address"),
	R("ST", MEM, GLOBAL, MEM, F_ST | F_GN, "store, generic address"),
	R("LDU", MEM, GLOBAL, MEM, F_LD | F_GN, "uniform load, generic address"),
	R("LDL", MEM, LOCAL, MEM, F_LD, "load from local memory"),
	R("STL", MEM, LOCAL, MEM, F_ST, "store to local memory"),
	R("ATOM", MEM, GLOBAL, MEM, F_LD | F_AT | F_GN, "atomic, generic address"),
	R("ATOMG", MEM, GLOBAL, MEM, F_LD | F_AT, "atomic on global memory"),
	R("RED", MEM, GLOBAL, MEM, F_ST | F_AT, "reduction on global memory (no result)"),
	R("REDG", MEM, GLOBAL, MEM, F_ST | F_AT, "reduction on global memory (Hopper)"),
	R("LDGSTS", MEM, GLOBAL, MEM, F_LD, "asynchronous global to shared copy (Ampere)"),
	R("UTMALDG", MEM, GLOBAL, MEM, F_LD, "tensor-memory-accelerator load (Hopper)"),
	R("UTMASTG", MEM, GLOBAL, MEM, F_ST, "tensor-memory-accelerator store (Hopper)"),
	R("UTMAPF", MEM, GLOBAL, MEM, 0, "tensor-memory-accelerator prefetch (Hopper)"),
	R("UBLKCP", MEM, GLOBAL, MEM, F_LD, "bulk copy (Hopper)"),
	R("CCTL", MEM, GLOBAL, MEM, 0, "cache control"),
	R("CCTLL", MEM, LOCAL, MEM, 0, "cache control, local"),
	R("CCTLT", MEM, TEX, MEM, 0, "texture cache control"),
	/* ---- shared memory */
	R("LDS", MEM, SHARED, MEM, F_LD, "load from shared memory"),
	R("STS", MEM, SHARED, MEM, F_ST, "store to shared memory"),
	R("LDSM", MEM, SHARED, MEM, F_LD, "load matrix from shared memory"),
	R("STSM", MEM, SHARED, MEM, F_ST, "store matrix to shared memory (Hopper)"),
	R("ATOMS", MEM, SHARED, MEM, F_LD | F_AT, "atomic on shared memory"),
	R("SYNCS", MEM, SHARED, MEM, F_AT, "shared-memory barrier (mbarrier) operation (Hopper)"),
	/* ---- constant and texture/surface */
	R("LDC", MEM, CONST, MEM, F_LD, "load from constant memory"),
	R("ULDC", MEM, CONST, MEM, F_LD, "load constant to uniform register"),
	R("TEX", MEM, TEX, MEM, F_LD, "texture fetch"),
	R("TEXS", MEM, TEX, MEM, F_LD, "texture fetch, short form"),
	R("TLD", MEM, TEX, MEM, F_LD, "texture load"),
	R("TLDS", MEM, TEX, MEM, F_LD, "texture load, short form"),
	R("TLD4", MEM, TEX, MEM, F_LD, "texture gather"),
	R("TLD4S", MEM, TEX, MEM, F_LD, "texture gather, short form"),
	R("TXD", MEM, TEX, MEM, F_LD, "texture fetch with derivatives"),
	R("TXQ", MEM, TEX, MEM, F_LD, "texture query"),
	R("TMML", MEM, TEX, MEM, F_LD, "texture mip-map level"),
	R("SULD", MEM, TEX, MEM, F_LD, "surface load"),
	R("SUST", MEM, TEX, MEM, F_ST, "surface store"),
	R("SUATOM", MEM, TEX, MEM, F_LD | F_AT, "surface atomic"),
	R("SURED", MEM, TEX, MEM, F_ST | F_AT, "surface reduction"),
	R("SUQ", MEM, TEX, MEM, F_LD, "surface query"),
	R("ALD", MEM, TEX, MEM, F_LD, "attribute load"),
	R("AST", MEM, TEX, MEM, F_ST, "attribute store"),
	/* ---- fences and barriers */
	R("MEMBAR", MEM, NONE, SYNC, F_MB, "memory barrier"),
	R("FENCE", MEM, NONE, SYNC, F_MB, "memory fence (Hopper)"),
	R("ERRBAR", MEM, NONE, SYNC, F_MB, "error barrier"),
	R("CGAERRBAR", MEM, NONE, SYNC, F_MB, "cluster error barrier (Hopper)"),
	R("BAR", BRANCH, NONE, SYNC, F_BAR, "CTA barrier"),
	R("BARRIER", BRANCH, NONE, SYNC, F_BAR, "CTA barrier (alternative spelling)"),
	R("ARRIVES", MEM, SHARED, MEM, F_AT, "arrive on a shared-memory barrier (Hopper)"),
	/* ---- control.  F_CS marks what only records where the warp will
	 * reconverge, break, continue, return or exit (or, WARPSYNC, waits for
	 * lanes) and never branches itself: compilers put it between a compare
	 * and the branch it guards (ISETP; BSSY; @P BRA), so the trace reader
	 * lets the compare's dependence pass it to the branch.  BSYNC, SYNC,
	 * BRK, CONT, BREAK, RET and EXIT do move the warp and stay branches. */
	R("BRA", BRANCH, NONE, UNIT, F_CT, "branch"),
	R("BRX", BRANCH, NONE, UNIT, F_CT, "indirect branch"),
	R("BRXU", BRANCH, NONE, UNIT, F_CT, "indirect branch, uniform register"),
	R("JMP", BRANCH, NONE, UNIT, F_CT, "absolute jump"),
	R("JMX", BRANCH, NONE, UNIT, F_CT, "absolute indirect jump"),
	R("JMXU", BRANCH, NONE, UNIT, F_CT, "absolute indirect jump, uniform register"),
	R("CAL", BRANCH, NONE, UNIT, F_CT, "relative call"),
	R("CALL", BRANCH, NONE, UNIT, F_CT, "call"),
	R("JCAL", BRANCH, NONE, UNIT, F_CT, "absolute call"),
	R("PRET", BRANCH, NONE, UNIT, F_CT | F_CS, "pre-return (pre-Volta)"),
	R("RET", BRANCH, NONE, UNIT, F_CT | F_RET, "return"),
	R("EXIT", BRANCH, NONE, UNIT, F_CT | F_RET, "exit the program"),
	R("KIL", BRANCH, NONE, UNIT, F_CT | F_RET, "kill the thread (pre-Volta)"),
	R("KILL", BRANCH, NONE, UNIT, F_CT | F_RET, "kill the thread"),
	R("BRK", BRANCH, NONE, UNIT, F_CT, "break (pre-Volta)"),
	R("BREAK", BRANCH, NONE, UNIT, F_CT, "break out of a convergence barrier"),
	R("CONT", BRANCH, NONE, UNIT, F_CT, "continue (pre-Volta)"),
	R("SSY", BRANCH, NONE, UNIT, F_CT | F_CS, "set synchronisation point (pre-Volta)"),
	R("SYNC", BRANCH, NONE, UNIT, F_CT, "converge at the synchronisation point (pre-Volta)"),
	R("PBK", BRANCH, NONE, UNIT, F_CT | F_CS, "pre-break (pre-Volta)"),
	R("PCNT", BRANCH, NONE, UNIT, F_CT | F_CS, "pre-continue (pre-Volta)"),
	R("PEXIT", BRANCH, NONE, UNIT, F_CT | F_CS, "pre-exit (pre-Volta)"),
	R("BSSY", BRANCH, NONE, UNIT, F_CT | F_CS, "set a convergence barrier"),
	R("BSYNC", BRANCH, NONE, UNIT, F_CT, "wait on a convergence barrier"),
	R("WARPSYNC", BRANCH, NONE, UNIT, F_CT | F_CS, "synchronise the lanes of a warp"),
	R("BPT", BRANCH, NONE, UNIT, F_CT, "breakpoint or trap"),
	R("YIELD", BRANCH, NONE, UNIT, F_CT, "yield to another warp"),
	R("ACQBULK", BRANCH, NONE, SYNC, F_CT, "wait for a bulk transfer (Hopper)"),
};

size_t iw_opcode_count(void) { return IW_ARRAY_LEN(table); }

const struct iw_opcode *iw_opcode_get(size_t i) { return i < IW_ARRAY_LEN(table) ? &table[i] : NULL; }

int iw_opcode_find(const char *name, size_t len)
{
	/* Linear: the trace reader caches decoded opcode tokens, so this runs
	 * once per distinct opcode string of a run, not per instruction. */
	for (size_t i = 0; i < IW_ARRAY_LEN(table); i++)
		if (strncmp(table[i].name, name, len) == 0 && table[i].name[len] == 0)
			return (int)i;
	return -1;
}
