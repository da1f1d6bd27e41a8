/*
 * cli/cmd_trace_info.c -- 'issuewatt trace-info PATH': what an Accel-Sim
 * trace holds, per kernel and in total, read through the same workload
 * interface the simulator uses (so what it reports is what a run sees).
 *
 * Memory footprint = distinct 32-byte sectors of global and local memory the
 * lanes touch (the unit the memory model moves).  It is exact up to 4 Mi
 * distinct sectors per kernel (a 32 MiB hash set); past that it switches to a
 * HyperLogLog estimate (2^12 registers, ~1.6 % standard error, Flajolet et
 * al. 2007) and says "~" so memory stays bounded on any trace.
 */
#include "cli.h"
#include "iw.h"
#include "perf.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SET_MAX (1u << 22)
#define HLL_BITS 12
#define HLL_M (1u << HLL_BITS)

struct footprint {
	uint64_t *slot; /* open addressing; 0 = empty, so keys are stored +1 */
	uint32_t cap, n;
	int overflow;
	uint8_t hll[HLL_M];
};

static void fp_reset(struct footprint *f)
{
	if (f->slot)
		memset(f->slot, 0, f->cap * sizeof *f->slot);
	f->n = 0;
	f->overflow = 0;
	memset(f->hll, 0, sizeof f->hll);
}

static int fp_grow(struct footprint *f)
{
	uint32_t ncap = f->cap ? f->cap * 2 : 1024;
	uint64_t *ns = iw_calloc(ncap, sizeof *ns);
	if (!ns)
		return -1;
	for (uint32_t i = 0; i < f->cap; i++)
		if (f->slot[i]) {
			uint32_t h = (uint32_t)iw_hash64(f->slot[i]) & (ncap - 1);
			while (ns[h])
				h = (h + 1) & (ncap - 1);
			ns[h] = f->slot[i];
		}
	iw_free(f->slot);
	f->slot = ns;
	f->cap = ncap;
	return 0;
}

static int fp_add(struct footprint *f, uint64_t sector)
{
	uint64_t h = iw_hash64(sector);
	uint32_t reg = (uint32_t)(h >> (64 - HLL_BITS));
	uint64_t rest = h << HLL_BITS;
	uint8_t rank = (uint8_t)(rest ? __builtin_clzll(rest) + 1 : 64 - HLL_BITS + 1);
	if (rank > f->hll[reg])
		f->hll[reg] = rank;
	if (f->overflow)
		return 0;
	if ((uint64_t)(f->n + 1) * 2 > f->cap) {
		if (f->n >= SET_MAX) {
			f->overflow = 1;
			return 0;
		}
		if (fp_grow(f))
			return -1;
	}
	uint64_t key = sector + 1;
	uint32_t i = (uint32_t)h & (f->cap - 1);
	while (f->slot[i]) {
		if (f->slot[i] == key)
			return 0;
		i = (i + 1) & (f->cap - 1);
	}
	f->slot[i] = key;
	f->n++;
	return 0;
}

static double fp_count(const struct footprint *f)
{
	if (!f->overflow)
		return f->n;
	double sum = 0;
	uint32_t zeros = 0;
	for (uint32_t i = 0; i < HLL_M; i++) {
		sum += ldexp(1.0, -f->hll[i]);
		zeros += f->hll[i] == 0;
	}
	double m = HLL_M, est = 0.7213 / (1 + 1.079 / m) * m * m / sum;
	if (est <= 2.5 * m && zeros)
		est = m * log(m / zeros);
	return est;
}

struct stats {
	uint64_t kernels, ctas, warps, insts, mask0, unknown, mem_insts;
	uint64_t unit[IW_UNIT_COUNT];
	uint32_t grid[3], block[3], nregs, shmem, tracer, binary;
	char name[256];
};

static void add_stats(struct stats *t, const struct stats *k)
{
	t->kernels += k->kernels;
	t->ctas += k->ctas;
	t->warps += k->warps;
	t->insts += k->insts;
	t->mask0 += k->mask0;
	t->unknown += k->unknown;
	t->mem_insts += k->mem_insts;
	for (int u = 0; u < IW_UNIT_COUNT; u++)
		t->unit[u] += k->unit[u];
}

/* Unknown opcodes of one kernel, by opcode number (past the table). */
struct unk {
	uint16_t op;
	uint64_t n;
};

static void print_text(FILE *f, const char *label, const struct stats *s, const struct footprint *fp,
		       const struct iw_workload *w, const struct unk *u, size_t nu, int total)
{
	if (total)
		fprintf(f, "total: %llu kernel%s\n", (unsigned long long)s->kernels, s->kernels == 1 ? "" : "s");
	else {
		fprintf(f, "%s: %s\n", label, s->name);
		fprintf(f, "  grid (%u,%u,%u)  block (%u,%u,%u)  registers %u  shared memory %u B\n", s->grid[0],
			s->grid[1], s->grid[2], s->block[0], s->block[1], s->block[2], s->nregs, s->shmem);
		fprintf(f, "  tracer version %u  binary version %u\n", s->tracer, s->binary);
	}
	fprintf(f, "  thread blocks %llu  warps %llu  warp-instructions %llu  mask-0 %llu\n",
		(unsigned long long)s->ctas, (unsigned long long)s->warps, (unsigned long long)s->insts,
		(unsigned long long)s->mask0);
	fprintf(f, "  mix:");
	for (int i = 0; i < IW_UNIT_COUNT; i++)
		fprintf(f, " %s %llu (%.1f%%)", iw_unit_name[i], (unsigned long long)s->unit[i],
			s->insts ? 100.0 * (double)s->unit[i] / (double)s->insts : 0.0);
	fprintf(f, "\n  unknown opcodes: ");
	if (!nu)
		fprintf(f, "none");
	for (size_t i = 0; i < nu; i++)
		fprintf(f, "%s%s (%llu)", i ? ", " : "", iw_trace_opcode_name(w, u[i].op), (unsigned long long)u[i].n);
	double c = fp_count(fp);
	fprintf(f, "\n  footprint: %s%.0f distinct 32-byte sectors of global/local memory (%s%.0f B)\n",
		fp->overflow ? "~" : "", c, fp->overflow ? "~" : "", c * 32);
}

static void print_csv(FILE *f, const char *label, const struct stats *s, const struct footprint *fp,
		      const struct iw_workload *w, const struct unk *u, size_t nu, int total)
{
	fprintf(f, "%s,", label);
	iw_csv_field(f, total ? "" : s->name); /* (C++ names may hold commas) */
	if (total)
		fprintf(f, ",,,,,,,,,,");
	else
		fprintf(f, ",%u,%u,%u,%u,%u,%u,%u,%u,%u,%u", s->grid[0], s->grid[1], s->grid[2], s->block[0], s->block[1],
			s->block[2], s->nregs, s->shmem, s->tracer, s->binary);
	fprintf(f, ",%llu,%llu,%llu", (unsigned long long)s->ctas, (unsigned long long)s->warps,
		(unsigned long long)s->insts);
	for (int i = 0; i < IW_UNIT_COUNT; i++)
		fprintf(f, ",%llu", (unsigned long long)s->unit[i]);
	fprintf(f, ",%llu,%llu,\"", (unsigned long long)s->mask0, (unsigned long long)s->unknown);
	for (size_t i = 0; i < nu; i++)
		fprintf(f, "%s%s:%llu", i ? " " : "", iw_trace_opcode_name(w, u[i].op), (unsigned long long)u[i].n);
	fprintf(f, "\",%.0f,%d\n", fp_count(fp), fp->overflow);
}

/* One kernel (kn > 0) or the total (kn == 0) as a JSON object: the CSV's
 * fields, with the grid and block as arrays, the mix and the unknown opcodes
 * as objects. */
static void print_json(FILE *f, uint64_t kn, const struct stats *s, const struct footprint *fp,
		       const struct iw_workload *w, const struct unk *u, size_t nu)
{
	fputc('{', f);
	if (kn) {
		fprintf(f, "\"kernel\": %llu, \"name\": ", (unsigned long long)kn);
		iw_json_str(f, s->name);
		fprintf(f, ", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"nregs\": %u, \"shmem_bytes\": %u, "
			   "\"tracer_version\": %u, \"binary_version\": %u, ",
			s->grid[0], s->grid[1], s->grid[2], s->block[0], s->block[1], s->block[2], s->nregs, s->shmem,
			s->tracer, s->binary);
	} else {
		fprintf(f, "\"kernels\": %llu, ", (unsigned long long)s->kernels);
	}
	fprintf(f, "\"ctas\": %llu, \"warps\": %llu, \"warp_insts\": %llu, \"mix\": {", (unsigned long long)s->ctas,
		(unsigned long long)s->warps, (unsigned long long)s->insts);
	for (int i = 0; i < IW_UNIT_COUNT; i++)
		fprintf(f, "%s\"%s\": %llu", i ? ", " : "", iw_unit_name[i], (unsigned long long)s->unit[i]);
	fprintf(f, "}, \"mask0\": %llu, \"unknown\": %llu, \"unknown_opcodes\": {", (unsigned long long)s->mask0,
		(unsigned long long)s->unknown);
	for (size_t i = 0; i < nu; i++) {
		fputs(i ? ", " : "", f);
		iw_json_str(f, iw_trace_opcode_name(w, u[i].op));
		fprintf(f, ": %llu", (unsigned long long)u[i].n);
	}
	fprintf(f, "}, \"footprint_sectors\": %.0f, \"footprint_estimated\": %s}", fp_count(fp),
		fp->overflow ? "true" : "false");
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: issuewatt trace-info [--format text|csv|json] PATH\n"
		   "Summarise an Accel-Sim SASS trace: PATH is a trace folder, its kernelslist.g, or one\n"
		   "kernel-N.traceg[.xz|.gz].  Per kernel and in total: grid, block, registers, shared memory,\n"
		   "tracer and binary version, thread blocks, warps, warp-instructions, mix by unit class,\n"
		   "mask-0 instructions, opcodes the SASS table lacks, and the memory footprint (distinct\n"
		   "32-byte sectors of global/local memory).\n\n"
		   "  --format FMT   text (default), csv (one row per kernel, then 'total') or json:\n"
		   "                 {\"tool\", \"version\", \"path\", \"kernels\": [...], \"total\": {...}}, each\n"
		   "                 kernel with the csv's fields except grid and block as [x, y, z], the mix\n"
		   "                 as {\"UNIT\": count, ...} (not one field per unit), unknown_opcodes as\n"
		   "                 {\"OPCODE\": count, ...} and footprint_estimated as true/false; the total\n"
		   "                 has \"kernels\" (their number) in place of kernel, name, grid, block,\n"
		   "                 nregs, shmem_bytes, tracer_version and binary_version\n"
		   "  -h, --help     this text\n\n"
		   "Exit status: 0 ok, 1 failure, 2 usage error, 3 invalid trace (file:line: what was\n"
		   "expected, what was found).\n");
}

int cmd_trace_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	int csv = 0, json = 0, c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			csv = strcmp(optarg, "csv") == 0;
			json = strcmp(optarg, "json") == 0;
			if (!csv && !json && strcmp(optarg, "text") != 0)
				return cli_fail(2, "trace-info: --format expects text, csv or json, found '%s'", optarg);
			break;
		case 'h': usage(stdout); return 0;
		default:
			usage(stderr);
			return cli_fail(2, "trace-info: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return cli_fail(2, "trace-info: expected one trace PATH, found %d", argc - optind);
	}
	const char *path = argv[optind];
	struct iw_err e = {0};
	struct iw_workload *w = NULL;
	struct footprint *kfp = iw_calloc(1, sizeof *kfp), *tfp = iw_calloc(1, sizeof *tfp);
	size_t nop = iw_opcode_count() + 512;
	uint64_t *opcount = iw_calloc(2 * nop, sizeof *opcount); /* per kernel, total */
	struct unk *unk = iw_calloc(nop, sizeof *unk);
	struct stats tot = {0};
	int rc = 0;
	if (!kfp || !tfp || !opcount || !unk) {
		rc = iw_fail(&e, IW_ERUN, "out of memory");
		goto out;
	}
	if ((rc = iw_trace_open(path, &w, &e)))
		goto out;
	if (csv) {
		printf("kernel,name,grid_x,grid_y,grid_z,block_x,block_y,block_z,nregs,shmem_bytes,tracer_version,"
		       "binary_version,ctas,warps,warp_insts");
		for (int i = 0; i < IW_UNIT_COUNT; i++)
			printf(",%s", iw_unit_name[i]);
		printf(",mask0,unknown,unknown_opcodes,footprint_sectors,footprint_estimated\n");
	}
	if (json) {
		printf("{\"tool\": \"issuewatt\", \"version\": \"%s\", \"path\": ", IW_VERSION);
		iw_json_str(stdout, path);
		printf(", \"kernels\": [");
	}
	struct iw_kernel_info ki;
	struct iw_mem_addrs ma;
	uint64_t *opk = opcount;
	for (uint64_t kn = 1;; kn++) {
		int r = w->ops->next_kernel(w, &ki, &e);
		if (r < 0) {
			rc = r;
			goto out;
		}
		if (r == 0)
			break;
		struct stats ks = {0};
		ks.kernels = 1;
		memcpy(ks.grid, ki.grid, sizeof ks.grid);
		memcpy(ks.block, ki.block, sizeof ks.block);
		ks.nregs = ki.nregs;
		ks.shmem = ki.shmem;
		ks.tracer = ki.tracer_version;
		ks.binary = ki.binary_version;
		memcpy(ks.name, ki.name, sizeof ks.name);
		fp_reset(kfp);
		memset(opk, 0, nop * sizeof *opk);
		struct iw_cta cta;
		while ((r = w->ops->next_cta(w, &cta, &e)) == 1) {
			ks.ctas++;
			ks.warps += cta.warps;
			for (uint32_t wi = 0; wi < cta.warps; wi++) {
				struct iw_inst in;
				while ((r = w->ops->fetch(w, &cta, wi, &in, &ma, &e)) == 1) {
					ks.insts++;
					ks.unit[in.unit]++;
					ks.mask0 += (in.flags & IW_F_MASK0) != 0;
					if (in.opcode < nop)
						opk[in.opcode]++;
					if (in.space != IW_SPACE_GLOBAL && in.space != IW_SPACE_LOCAL)
						continue;
					uint32_t wd = in.mem_width ? in.mem_width : 1;
					for (uint32_t l = 0; l < ma.n; l++)
						for (uint64_t s = ma.addr[l] / 32; s <= (ma.addr[l] + wd - 1) / 32; s++)
							if (fp_add(kfp, s) || fp_add(tfp, s)) {
								w->ops->release_cta(w, &cta);
								rc = iw_fail(&e, IW_ERUN, "out of memory");
								goto out;
							}
				}
				if (r < 0)
					break;
			}
			w->ops->release_cta(w, &cta);
			if (r < 0)
				break;
		}
		if (r < 0) {
			rc = r;
			goto out;
		}
		size_t nu = 0;
		for (size_t i = 0; i < nop; i++)
			opcount[nop + i] += opk[i];
		for (size_t i = iw_opcode_count(); i < nop; i++)
			if (opk[i]) {
				unk[nu].op = (uint16_t)i;
				unk[nu++].n = opk[i];
				ks.unknown += opk[i];
			}
		char label[32];
		snprintf(label, sizeof label, csv ? "%llu" : "kernel %llu", (unsigned long long)kn);
		if (json) {
			printf("%s\n  ", kn > 1 ? "," : "");
			print_json(stdout, kn, &ks, kfp, w, unk, nu);
		} else if (csv) {
			print_csv(stdout, label, &ks, kfp, w, unk, nu, 0);
		} else {
			print_text(stdout, label, &ks, kfp, w, unk, nu, 0);
		}
		add_stats(&tot, &ks);
	}
	size_t nu = 0;
	for (size_t i = iw_opcode_count(); i < nop; i++)
		if (opcount[nop + i]) {
			unk[nu].op = (uint16_t)i;
			unk[nu++].n = opcount[nop + i];
		}
	if (json) {
		printf("\n], \"total\": ");
		print_json(stdout, 0, &tot, tfp, w, unk, nu);
		printf("}\n");
	} else if (csv) {
		print_csv(stdout, "total", &tot, tfp, w, unk, nu, 1);
	} else {
		print_text(stdout, "total", &tot, tfp, w, unk, nu, 1);
	}
out:
	if (w)
		iw_workload_close(w);
	if (kfp)
		iw_free(kfp->slot);
	if (tfp)
		iw_free(tfp->slot);
	iw_free(kfp);
	iw_free(tfp);
	iw_free(opcount);
	iw_free(unk);
	fflush(stdout);
	if (rc)
		return cli_fail(e.code ? e.code : IW_ERUN, "%s", e.msg);
	return 0;
}
