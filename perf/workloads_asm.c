/*
 * perf/workloads_asm.c -- a tiny assembler for the built-in kernels' SASS-like
 * text: labels, predicates, Volta opcodes with modifiers, register operands
 * (wide results and 64-bit addresses expanded as the hardware reads and
 * writes them), and generator annotations in braces:
 *   {loop=fixed:N | loop=lanes:MEAN | loop=tree}   on a backward BRA
 *   {skip=P div=Q | tree | mask=0xM [warp0]}        on a forward BRA
 *   {l1=A l2=B}                                     on a global/local access
 *     (shares found in L1 and L2, the rest in DRAM; for a store, which
 *     writes through L1: the share whose sectors stay in L2, the rest is
 *     written back to DRAM)
 * The result is a static program (struct wl_prog); nothing here runs per
 * dynamic instruction.
 */
#include "workloads_gen.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Execution unit and properties of each base mnemonic.  Classes follow
 * Accel-Sim's Volta opcode map (trace-driven ISA definition): IMAD and the
 * logic/shift ops on the INT pipe, FFMA/FADD/FMUL on SP, D* on DP, MUFU and
 * conversions on SFU, HMMA on the tensor cores, loads/stores/fences on MEM. */
enum { W = 1u << 15 }; /* writes its first register operand */
static const struct {
	const char *name;
	uint8_t unit, space;
	uint16_t flags; /* iw_inst_flag | W */
} ops[] = {
	{"NOP", IW_UNIT_INT, 0, 0},
	{"MOV", IW_UNIT_INT, 0, W},
	{"S2R", IW_UNIT_INT, 0, W},
	{"CS2R", IW_UNIT_INT, 0, W},
	{"IADD3", IW_UNIT_INT, 0, W},
	{"IMAD", IW_UNIT_INT, 0, W},
	{"LEA", IW_UNIT_INT, 0, W},
	{"LOP3", IW_UNIT_INT, 0, W},
	{"SHF", IW_UNIT_INT, 0, W},
	{"SEL", IW_UNIT_INT, 0, W},
	{"IMNMX", IW_UNIT_INT, 0, W},
	{"PRMT", IW_UNIT_INT, 0, W},
	{"POPC", IW_UNIT_INT, 0, W},
	{"SHFL", IW_UNIT_INT, 0, W},
	{"ISETP", IW_UNIT_INT, 0, IW_F_SETS_PRED},
	{"FFMA", IW_UNIT_SP, 0, W},
	{"FADD", IW_UNIT_SP, 0, W},
	{"FMUL", IW_UNIT_SP, 0, W},
	{"FMNMX", IW_UNIT_SP, 0, W},
	{"FSEL", IW_UNIT_SP, 0, W},
	{"FSETP", IW_UNIT_SP, 0, IW_F_SETS_PRED},
	{"HFMA2", IW_UNIT_SP, 0, W},
	{"DFMA", IW_UNIT_DP, 0, W},
	{"DADD", IW_UNIT_DP, 0, W},
	{"DMUL", IW_UNIT_DP, 0, W},
	{"DSETP", IW_UNIT_DP, 0, IW_F_SETS_PRED},
	{"MUFU", IW_UNIT_SFU, 0, W},
	{"I2F", IW_UNIT_SFU, 0, W},
	{"F2I", IW_UNIT_SFU, 0, W},
	{"HMMA", IW_UNIT_TENSOR, 0, W},
	{"LDG", IW_UNIT_MEM, IW_SPACE_GLOBAL, W | IW_F_LOAD},
	{"STG", IW_UNIT_MEM, IW_SPACE_GLOBAL, IW_F_STORE},
	{"LDS", IW_UNIT_MEM, IW_SPACE_SHARED, W | IW_F_LOAD},
	{"STS", IW_UNIT_MEM, IW_SPACE_SHARED, IW_F_STORE},
	{"LDL", IW_UNIT_MEM, IW_SPACE_LOCAL, W | IW_F_LOAD},
	{"STL", IW_UNIT_MEM, IW_SPACE_LOCAL, IW_F_STORE},
	{"LDC", IW_UNIT_MEM, IW_SPACE_CONST, W | IW_F_LOAD},
	{"ATOMG", IW_UNIT_MEM, IW_SPACE_GLOBAL, W | IW_F_LOAD | IW_F_STORE | IW_F_ATOMIC},
	{"RED", IW_UNIT_MEM, IW_SPACE_GLOBAL, IW_F_STORE | IW_F_ATOMIC},
	{"MEMBAR", IW_UNIT_MEM, 0, IW_F_MEMBAR},
	{"BAR", IW_UNIT_BRANCH, 0, IW_F_BARRIER},
	{"BRA", IW_UNIT_BRANCH, 0, IW_F_CONTROL},
	{"BSSY", IW_UNIT_BRANCH, 0, IW_F_CONTROL},
	{"BSYNC", IW_UNIT_BRANCH, 0, IW_F_CONTROL},
	{"EXIT", IW_UNIT_BRANCH, 0, IW_F_CONTROL | IW_F_RETURN},
};

const char *wl_opcode_name(uint16_t op) { return op < IW_ARRAY_LEN(ops) ? ops[op].name : "?"; }

#define MAX_LABELS 256
struct asm_state {
	struct wl_prog *p;
	struct iw_err *e;
	int line;
	struct {
		char name[32];
		uint32_t at;
	} labels[MAX_LABELS];
	uint32_t nlabels;
	struct {
		char name[32];
		uint32_t inst;
		int line;
	} fix[MAX_LABELS * 2];
	uint32_t nfix;
};

static int fail(struct asm_state *a, const char *what, const char *found)
{
	return iw_fail(a->e, IW_ERUN, "built-in kernel %s:%d: %s, found '%s'", a->p->name, a->line,
		       what, found);
}

static int has_mod(const char *opcode, const char *mod)
{
	size_t n = strlen(mod);
	for (const char *s = strchr(opcode, '.'); s; s = strchr(s + 1, '.'))
		if (strncmp(s + 1, mod, n) == 0 && (s[1 + n] == '.' || s[1 + n] == 0))
			return 1;
	return 0;
}

/* Append registers r..r+w-1 to list (RZ never: it is no dependence). */
static int add_regs(struct asm_state *a, uint16_t *list, uint8_t *n, int max, long r, int w,
		    const char *tok)
{
	if (r == IW_REG_RZ)
		return 0;
	for (int k = 0; k < w; k++) {
		if (*n >= max)
			return fail(a, "at most IW_MAX_DST/IW_MAX_SRC registers per instruction", tok);
		if (r + k >= (long)a->p->nregs)
			return fail(a, "a register below the kernel's register count", tok);
		list[(*n)++] = (uint16_t)(r + k);
	}
	return 0;
}

/* "R12", "RZ", "-R3", "|R4|", "R5.reuse" -> register number, or -1. */
static long parse_reg(const char *t)
{
	while (*t == '-' || *t == '|' || *t == '!')
		t++;
	if (t[0] != 'R')
		return -1;
	if (t[1] == 'Z')
		return IW_REG_RZ;
	if (!isdigit((unsigned char)t[1]))
		return -1;
	return strtol(t + 1, NULL, 10);
}

static double ann_num(const char *ann, const char *key, double def)
{
	const char *s = ann;
	size_t n = strlen(key);
	while ((s = strstr(s, key)) != NULL) {
		if ((s == ann || s[-1] == ' ' || s[-1] == ',') && s[n] == '=')
			return strtod(s + n + 1, NULL);
		s += n;
	}
	return def;
}

static uint32_t thresh(double p)
{
	if (p <= 0)
		return 0;
	if (p >= 1)
		return UINT32_MAX;
	return (uint32_t)(p * 4294967296.0);
}

static int grow(struct wl_prog *p)
{
	if (p->n < p->cap)
		return 0;
	uint32_t cap = p->cap ? p->cap * 2 : 64;
	struct wl_sinst *c = iw_realloc(p->code, cap * sizeof *c);
	if (!c)
		return -1;
	p->code = c;
	p->cap = cap;
	return 0;
}

static int assemble_line(struct asm_state *a, char *s)
{
	struct wl_prog *p = a->p;
	char *cm = strstr(s, "//");
	if (cm)
		*cm = 0;
	char ann[128] = "";
	char *br = strchr(s, '{');
	if (br) {
		char *end = strchr(br, '}');
		if (!end)
			return fail(a, "a closing '}'", br);
		*end = 0;
		snprintf(ann, sizeof ann, "%s", br + 1);
		*br = 0;
	}
	s = iw_trim(s);
	size_t len = strlen(s);
	if (len && s[len - 1] == ';')
		s[--len] = 0;
	if (!len)
		return 0;
	if (s[len - 1] == ':') { /* label */
		if (a->nlabels >= MAX_LABELS || len > 31)
			return fail(a, "fewer labels", s);
		s[len - 1] = 0;
		snprintf(a->labels[a->nlabels].name, 32, "%s", s);
		a->labels[a->nlabels++].at = p->n;
		return 0;
	}
	if (grow(p))
		return iw_fail(a->e, IW_ERUN, "out of memory");
	struct wl_sinst *si = &p->code[p->n];
	memset(si, 0, sizeof *si);
	si->head_of = 0xff;
	si->target = WL_NONE;
	struct iw_inst *in = &si->proto;
	in->pc = p->n * WL_PC_BYTES;
	in->mask = UINT32_MAX;
	in->maddr = IW_MADDR_NONE;
	int predicated = 0;
	if (s[0] == '@') {
		predicated = strncmp(s, "@PT", 3) != 0;
		s = strchr(s, ' ');
		if (!s)
			return fail(a, "an instruction after the predicate", "");
		s = iw_trim(s);
	}
	char opcode[48];
	size_t ol = strcspn(s, " \t");
	if (ol == 0 || ol >= sizeof opcode)
		return fail(a, "an opcode", s);
	memcpy(opcode, s, ol);
	opcode[ol] = 0;
	char *rest = s + ol;
	size_t bl = strcspn(opcode, ".");
	size_t op;
	for (op = 0; op < IW_ARRAY_LEN(ops); op++)
		if (strlen(ops[op].name) == bl && strncmp(ops[op].name, opcode, bl) == 0)
			break;
	if (op == IW_ARRAY_LEN(ops))
		return fail(a, "a known opcode", opcode);
	in->opcode = (uint16_t)op;
	in->unit = ops[op].unit;
	in->space = ops[op].space;
	in->flags = ops[op].flags & (uint16_t)~W;
	int writes = (ops[op].flags & W) != 0;
	int is_d = opcode[0] == 'D' && in->unit == IW_UNIT_DP;
	int dstw = has_mod(opcode, "128") ? 4 : (has_mod(opcode, "64") || has_mod(opcode, "WIDE") || is_d ||
						 strcmp(ops[op].name, "CS2R") == 0) ? 2 : 1;
	if (in->unit == IW_UNIT_TENSOR)
		dstw = has_mod(opcode, "F32") ? 4 : 2;
	if (in->unit == IW_UNIT_MEM && in->space) {
		in->mem_width = has_mod(opcode, "U8") || has_mod(opcode, "S8") ? 1
				: has_mod(opcode, "U16") || has_mod(opcode, "S16") ? 2
				: has_mod(opcode, "128") ? 16 : has_mod(opcode, "64") ? 8 : 4;
		in->mem_level = 1;
	}
	if (in->space == IW_SPACE_GLOBAL || in->space == IW_SPACE_LOCAL) {
		si->has_level = 1;
		double l1 = ann_num(ann, "l1", 0), l2 = ann_num(ann, "l2", 0);
		if (l1 < 0 || l2 < 0 || l1 + l2 > 1.000001)
			return fail(a, "l1, l2 shares between 0 and 1 summing to at most 1", ann);
		si->p1 = thresh(l1);
		si->p2 = thresh(l1 + l2);
	}
	/* operands */
	int nops = 0, seen_dst = 0;
	char *label = NULL;
	char *tok_save = NULL; /* strtok_r: kernels are assembled concurrently by sweep workers */
	for (char *t = strtok_r(rest, ",", &tok_save); t; t = strtok_r(NULL, ",", &tok_save)) {
		t = iw_trim(t);
		if (!*t)
			continue;
		nops++;
		if (t[0] == '[') { /* address: [Rn], [Rn+0x10], [Rn.64+0x10] */
			long r = parse_reg(t + 1);
			int w = strncmp(t + 1 + strcspn(t + 1, ".+]"), ".64", 3) == 0 ? 2 : 1;
			if (r >= 0 && add_regs(a, in->src, &in->nsrc, IW_MAX_SRC, r, w, t))
				return -IW_ERUN;
			seen_dst = 1; /* registers after an address are data sources */
			continue;
		}
		long r = parse_reg(t);
		if (r < 0) {
			if (t[0] == 'L' && t[1] == '_')
				label = t;
			continue; /* predicate, constant bank, immediate, special register */
		}
		if (writes && !seen_dst) {
			seen_dst = 1;
			if (add_regs(a, in->dst, &in->ndst, IW_MAX_DST, r, dstw, t))
				return -IW_ERUN;
			continue;
		}
		int w = 1;
		if (is_d)
			w = 2;
		else if (in->flags & IW_F_STORE)
			w = in->mem_width > 4 ? in->mem_width / 4 : 1;
		else if (nops == 4 && has_mod(opcode, "WIDE"))
			w = 2; /* IMAD.WIDE's addend is 64-bit */
		else if (in->unit == IW_UNIT_TENSOR)
			w = nops == 2 ? 2 : nops == 3 ? 1 : dstw; /* A, B, C fragments */
		if (add_regs(a, in->src, &in->nsrc, IW_MAX_SRC, r, w, t))
			return -IW_ERUN;
	}
	/* control */
	if (strcmp(ops[op].name, "EXIT") == 0) {
		si->kind = WL_K_EXIT;
	} else if (strcmp(ops[op].name, "BRA") == 0) {
		if (!label)
			return fail(a, "a branch target label L_...", s);
		if (a->nfix >= IW_ARRAY_LEN(a->fix))
			return fail(a, "fewer branches", label);
		snprintf(a->fix[a->nfix].name, 32, "%s", label);
		a->fix[a->nfix].inst = p->n;
		a->fix[a->nfix++].line = a->line;
		if (predicated)
			in->flags |= IW_F_PRED_BRANCH;
		if (strstr(ann, "loop=")) {
			if (p->nloops >= WL_MAX_LOOPS)
				return fail(a, "at most WL_MAX_LOOPS loops", ann);
			struct wl_loop *l = &p->loops[p->nloops];
			const char *k = strstr(ann, "loop=") + 5;
			if (strncmp(k, "fixed:", 6) == 0) {
				l->trip_kind = WL_T_FIXED;
				l->trip = (uint32_t)strtoul(k + 6, NULL, 10);
				if (l->trip < 1)
					return fail(a, "a trip count of at least 1", k);
			} else if (strncmp(k, "lanes:", 6) == 0) {
				l->trip_kind = WL_T_LANES;
				l->mean = strtod(k + 6, NULL);
				if (!(l->mean >= 1 && l->mean <= 64))
					return fail(a, "a mean trip count between 1 and 64", k);
			} else if (strncmp(k, "tree", 4) == 0) {
				l->trip_kind = WL_T_TREE;
			} else {
				return fail(a, "loop=fixed:N, loop=lanes:MEAN or loop=tree", k);
			}
			l->back = (uint16_t)p->n;
			si->kind = WL_K_LOOP;
			si->loop = (uint8_t)p->nloops++;
		} else {
			si->kind = WL_K_COND;
			if (strstr(ann, "tree")) {
				si->cond = WL_C_TREE;
			} else if (strstr(ann, "mask=")) {
				si->cond = WL_C_MASK;
				si->mask = (uint32_t)strtoul(strstr(ann, "mask=") + 5, NULL, 0);
				si->warp0 = strstr(ann, "warp0") != NULL;
			} else {
				double sk = ann_num(ann, "skip", 0), dv = ann_num(ann, "div", 0);
				if (sk < 0 || dv < 0 || sk + dv > 1.000001)
					return fail(a, "skip, div probabilities summing to at most 1", ann);
				si->cond = WL_C_PROB;
				si->p1 = thresh(sk);
				si->p2 = thresh(sk + dv);
			}
		}
	}
	p->n++;
	return 0;
}

/* Resolve labels, loop headers and the loop each tree branch counts in. */
static int resolve(struct asm_state *a)
{
	struct wl_prog *p = a->p;
	for (uint32_t f = 0; f < a->nfix; f++) {
		uint32_t l;
		for (l = 0; l < a->nlabels; l++)
			if (strcmp(a->labels[l].name, a->fix[f].name) == 0)
				break;
		a->line = a->fix[f].line;
		if (l == a->nlabels || a->labels[l].at >= p->n)
			return fail(a, "a defined label before the end", a->fix[f].name);
		struct wl_sinst *si = &p->code[a->fix[f].inst];
		si->target = (uint16_t)a->labels[l].at;
		if (si->kind == WL_K_LOOP) {
			if (si->target > a->fix[f].inst)
				return fail(a, "a loop branch going backwards", a->fix[f].name);
			struct wl_loop *lp = &p->loops[si->loop];
			lp->head = si->target;
			if (p->code[lp->head].head_of != 0xff)
				return fail(a, "one loop per header", a->fix[f].name);
			p->code[lp->head].head_of = si->loop;
		} else if (si->target <= a->fix[f].inst) {
			return fail(a, "a forward branch (backward ones need {loop=...})", a->fix[f].name);
		}
	}
	for (uint32_t i = 0; i < p->n; i++) {
		struct wl_sinst *si = &p->code[i];
		if (si->kind != WL_K_COND || si->cond != WL_C_TREE)
			continue;
		int best = -1;
		for (uint32_t l = 0; l < p->nloops; l++)
			if (p->loops[l].trip_kind == WL_T_TREE && p->loops[l].head <= i && i < p->loops[l].back)
				best = (int)l;
		if (best < 0)
			return iw_fail(a->e, IW_ERUN, "built-in kernel %s: a {tree} branch outside a loop=tree",
				       p->name);
		si->loop = (uint8_t)best;
	}
	if (!p->n || p->code[p->n - 1].kind != WL_K_EXIT)
		return iw_fail(a->e, IW_ERUN, "built-in kernel %s: the program must end with EXIT", p->name);
	return 0;
}

int wl_assemble(struct wl_prog *p, const char *src, struct iw_err *e)
{
	struct asm_state a = {.p = p, .e = e};
	char line[256];
	for (const char *s = src; *s;) {
		size_t n = strcspn(s, "\n");
		a.line++;
		if (n >= sizeof line)
			return fail(&a, "a shorter line", "...");
		memcpy(line, s, n);
		line[n] = 0;
		int rc = assemble_line(&a, line);
		if (rc)
			return rc;
		s += n;
		if (*s)
			s++;
	}
	return resolve(&a);
}

void wl_prog_free(struct wl_prog *p)
{
	iw_free(p->code);
	p->code = NULL;
	p->n = p->cap = 0;
}

/* ------------------------------------------------------- synthetic kernel */
/* A loop body drawn from the knobs, written as assembler text so that the
 * synthetic kernel obeys exactly the rules of the named ones.  Registers:
 * R0 thread index, R1 stack, R2:R3 the 64-bit base address, R4 the loop
 * counter; results rotate through R6..nregs-1 so that a source at producer
 * distance d reads the value written d producers earlier (loop-carried across
 * the back edge), which realises the dependence-distance distribution. */
struct synth_buf {
	char *s;
	size_t n, cap;
	int oom;
};

static void emit(struct synth_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(struct synth_buf *b, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		if (k < 0) {
			b->oom = 1;
			return;
		}
		if (b->s && b->n + (size_t)k < b->cap) {
			b->n += (size_t)k;
			return;
		}
		size_t cap = (b->cap + (size_t)k + 1) * 2;
		char *t = iw_realloc(b->s, cap);
		if (!t) {
			b->oom = 1;
			return;
		}
		b->s = t;
		b->cap = cap;
	}
}

/* Register read at a geometric producer distance (mean 1/q), capped so the
 * producer's register has not been rotated over since. */
static uint32_t synth_src(struct iw_rng *r, double q, const uint16_t *hist, uint32_t nh, uint32_t span)
{
	uint32_t d = 1;
	if (q < 1)
		d = 1 + (uint32_t)floor(log1p(-iw_rng_uniform(r) * 0.999999) / log1p(-q));
	if (d > nh)
		d = nh;
	if (d > span - 4)
		d = span - 4;
	return hist[(nh - d) % 256];
}

int wl_synth_build(struct wl_prog *p, const struct wl_knobs *k, uint64_t seed, struct iw_err *e)
{
	struct iw_rng r;
	iw_rng_seed(&r, iw_hash64(seed ^ 0x73796e7468ull));
	uint32_t nregs = p->nregs;
	uint32_t body = (uint32_t)k->body, iters = (uint32_t)k->iters;
	uint32_t first = 6, span = nregs - first;
	/* weights: INT SP DP SFU TENSOR, then ld st lds sts */
	double w[9] = {k->mix[IW_UNIT_INT], k->mix[IW_UNIT_SP], k->mix[IW_UNIT_DP], k->mix[IW_UNIT_SFU],
		       k->mix[IW_UNIT_TENSOR], k->ld, k->st, k->lds, k->sts};
	double tot = 0;
	for (int i = 0; i < 9; i++)
		tot += w[i];
	if (!(tot > 0))
		return iw_fail(e, IW_EINPUT, "synth: the instruction mix has no positive weight");
	/* dst history: register written by each producer, newest last */
	uint16_t hist[256];
	uint32_t nh = 0, next_reg = first;
	struct synth_buf b = {0};
	emit(&b, "MOV R1, c[0x0][0x28]\nS2R R0, SR_TID.X\nS2R R5, SR_CTAID.X\n"
		 "IMAD R0, R5, c[0x0][0x0], R0\nIMAD.WIDE R2, R0, 0x4, c[0x0][0x160]\nMOV R4, RZ\n");
	for (uint32_t i = first; i < nregs && nh < 256; i++)
		hist[nh++] = (uint16_t)i; /* every rotating register starts defined */
	/* In the synthetic body the previous round of producers is the prologue
	 * fill above, so early sources find a producer at any distance. */
	double q = k->dep > 1 ? 1.0 / k->dep : 1.0; /* geometric success probability */
	uint32_t pending_target = 0, nlab = 0, bars = (uint32_t)k->bar, placed_bars = 0;
	emit(&b, "L_body:\n");
	for (uint32_t i = 0; i < body; i++) {
		if (pending_target && i >= pending_target) {
			emit(&b, "L_s%u:\n", nlab++);
			pending_target = 0;
		}
		if (bars && placed_bars < bars && !pending_target && i == (placed_bars + 1) * body / (bars + 1)) {
			emit(&b, "BAR.SYNC 0x0\n");
			placed_bars++;
		}
		if (!pending_target && k->br > 0 && iw_rng_uniform(&r) < k->br && i + 3 < body && nlab < 240) {
			uint32_t s0 = synth_src(&r, q, hist, nh, span);
			emit(&b, "ISETP.GE.AND P1, PT, R%u, R4, PT\n@P1 BRA L_s%u {skip=%g div=%g}\n", s0, nlab,
			     k->skip, k->div);
			pending_target = i + 2 + iw_rng_below(&r, 5);
			if (pending_target > body)
				pending_target = body;
			continue;
		}
		double u = iw_rng_uniform(&r) * tot;
		int c = 0;
		while (c < 8 && u >= w[c]) {
			u -= w[c];
			c++;
		}
		int width = c == 2 ? 2 : c == 4 ? 4 : 1;
		if (c != 6 && c != 8) { /* allocate an aligned destination */
			next_reg = (next_reg + (uint32_t)width - 1) / (uint32_t)width * (uint32_t)width;
			if (next_reg + (uint32_t)width > nregs)
				next_reg = (first + (uint32_t)width - 1) / (uint32_t)width * (uint32_t)width;
		}
		uint32_t d = next_reg;
		uint32_t s0 = synth_src(&r, q, hist, nh, span), s1 = synth_src(&r, q, hist, nh, span), s2 = synth_src(&r, q, hist, nh, span);
		switch (c) {
		case 0:
			emit(&b, iw_rng_below(&r, 2) ? "IADD3 R%u, R%u, R%u, RZ\n" : "LOP3.LUT R%u, R%u, R%u, RZ, 0x96, !PT\n",
			     d, s0, s1);
			break;
		case 1: emit(&b, "FFMA R%u, R%u, R%u, R%u\n", d, s0, s1, s2); break;
		case 2:
			s0 &= ~1u, s1 &= ~1u, s2 &= ~1u;
			if (s0 < first) s0 = first;
			if (s1 < first) s1 = first;
			if (s2 < first) s2 = first;
			if (s0 + 1 >= nregs) s0 = first;
			if (s1 + 1 >= nregs) s1 = first;
			if (s2 + 1 >= nregs) s2 = first;
			emit(&b, "DFMA R%u, R%u, R%u, R%u\n", d, s0, s1, s2);
			break;
		case 3: emit(&b, "MUFU.EX2 R%u, R%u\n", d, s0); break;
		case 4:
			s0 = s0 + 1 >= nregs ? first : s0;
			s2 = s2 + 3 >= nregs ? first : s2;
			emit(&b, "HMMA.1688.F32 R%u, R%u, R%u, R%u\n", d, s0, s1, s2);
			break;
		case 5: emit(&b, "LDG.E.SYS R%u, [R2.64+0x%x] {l1=%g l2=%g}\n", d, (i * 4) & 0xfff, k->l1, k->l2); break;
		case 6: emit(&b, "STG.E.SYS [R2.64+0x%x], R%u {l1=%g l2=%g}\n", (i * 4) & 0xfff, s0, k->l1, k->l2); break;
		case 7: emit(&b, "LDS.U.32 R%u, [R0+0x%x]\n", d, (i * 4) & 0xffc); break;
		default: emit(&b, "STS [R0+0x%x], R%u\n", (i * 4) & 0xffc, s0); break;
		}
		if (c != 6 && c != 8) {
			for (int x = 0; x < width; x++)
				hist[nh++ % 256] = (uint16_t)(d + (uint32_t)x);
			if (nh >= 512)
				nh -= 256;
			next_reg += (uint32_t)width;
		}
	}
	if (pending_target)
		emit(&b, "L_s%u:\n", nlab++);
	emit(&b, "IADD3 R4, R4, 0x1, RZ\nISETP.LT.AND P0, PT, R4, c[0x0][0x170], PT\n"
		 "@P0 BRA L_body {loop=fixed:%u}\nEXIT\n", iters);
	if (b.oom) {
		iw_free(b.s);
		return iw_fail(e, IW_ERUN, "out of memory");
	}
	int rc = wl_assemble(p, b.s, e);
	iw_free(b.s);
	return rc;
}
