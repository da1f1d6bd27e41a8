/*
 * reports/report.c -- 'issuewatt report': a results file turned into what an
 * evaluation section needs.  Every figure is a gnuplot script (NAME.gp) next
 * to its data (NAME.dat), rendered to NAME.svg and NAME.png by running
 * gnuplot with only the terminal set on the command line, so a user restyles
 * a figure by editing its script and re-running render.sh.  The same numbers
 * go to summary.csv, kernels.csv and tables.tex.
 *
 * Normalisation follows the LOOG-Vortex thesis (Figures 6.4, 6.9, 6.10): each
 * scheme against the in-order baseline of the same workload and
 * configuration, aggregated over workloads with the geometric mean (the mean
 * of ratios that is consistent whichever side is the reference, Fleming &
 * Wallace, CACM 1986).
 */
#include "reports.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <gsl/gsl_cdf.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct fig {
	char name[64];
	char title[160];
	char caption[768];
	int w, h; /* pixels */
};

struct rep {
	const struct iw_results *res;
	const char *dir;    /* where files are written: the staging folder */
	const char *out;    /* the report's folder, for messages */
	char **schemes, **workloads;
	char (*wl_label)[256]; /* each workload as figures and tables name it (wl_labels) */
	size_t nsch, nwl, ncfg;
	/* The configurations are replicates: they differ only in run.seed (the
	 * built-in workloads' generator), so their spread is the model's
	 * run-to-run noise, summarised by a confidence interval; otherwise they
	 * are design points and a band is their lowest and highest value. */
	int replicates;
	size_t *cfg_of;     /* row -> configuration */
	size_t *first_row;  /* configuration -> a row (its parameter values) */
	long *idx;          /* [cfg][wl][sch] -> row or -1 */
	struct fig figs[64];
	size_t nfigs;
	struct iw_err *e;
	const char *power_runs;
	double *dlog;       /* model_se's two vectors of res->unc.n */
};

#define IW_TEX_KERNELS 40 /* kernels per workload in tables.tex */
#define IW_POWER_KERNEL_MARKS 200 /* kernel starts marked on the power figure */

static long at(const struct rep *r, size_t c, size_t w, size_t s) { return r->idx[(c * r->nwl + w) * r->nsch + s]; }

static size_t find_or_add(char ***v, size_t *n, const char *s, int *err)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return i;
	char **nv = iw_realloc(*v, (*n + 1) * sizeof **v);
	if (!nv) {
		*err = 1;
		return 0;
	}
	*v = nv;
	nv[*n] = (char *)s; /* borrowed from the rows */
	return (*n)++;
}

/* A workload's label in figures and tables: a sweep names a trace by the
 * path its spec gives (the results file keeps it, which the spec's
 * <power-trace> and --power-runs match), `run` by its folder, or its kernel
 * file (perf/trace.c); the label is the latter, unless two workloads of the
 * file would share it. */
static void wl_label_of(const char *name, char *out, size_t n)
{
	size_t len = strlen(name);
	while (len > 1 && name[len - 1] == '/')
		len--;
	size_t b = len;
	while (b && name[b - 1] != '/')
		b--;
	if (len - b == strlen("kernelslist.g") && !strncmp(name + b, "kernelslist.g", len - b) && b > 1) {
		len = b - 1; /* the list's folder */
		while (len > 1 && name[len - 1] == '/')
			len--;
		b = len;
		while (b && name[b - 1] != '/')
			b--;
	}
	if (b == len || (len - b == 1 && name[b] == '.') || (len - b == 2 && !strncmp(name + b, "..", 2)))
		b = 0, len = strlen(name); /* nothing better than the name itself */
	snprintf(out, n, "%.*s", (int)(len - b), name + b);
}

static int wl_labels(struct rep *r)
{
	r->wl_label = iw_calloc(r->nwl ? r->nwl : 1, sizeof *r->wl_label);
	unsigned char *clash = iw_calloc(r->nwl ? r->nwl : 1, 1);
	if (!r->wl_label || !clash) {
		iw_free(clash);
		return iw_fail(r->e, IW_ERUN, "out of memory");
	}
	for (size_t w = 0; w < r->nwl; w++)
		wl_label_of(r->workloads[w], r->wl_label[w], sizeof r->wl_label[w]);
	for (size_t w = 0; w < r->nwl; w++)
		for (size_t v = w + 1; v < r->nwl; v++)
			if (!strcmp(r->wl_label[v], r->wl_label[w]))
				clash[w] = clash[v] = 1;
	for (size_t w = 0; w < r->nwl; w++)
		if (clash[w])
			snprintf(r->wl_label[w], sizeof r->wl_label[w], "%s", r->workloads[w]);
	iw_free(clash);
	return 0;
}

/* The label of the workload a row names. */
static const char *wl_label_row(const struct rep *r, const char *workload)
{
	for (size_t w = 0; w < r->nwl; w++)
		if (!strcmp(r->workloads[w], workload))
			return r->wl_label[w];
	return workload;
}

static int same_params(const struct iw_row *a, const struct iw_row *b)
{
	if (a->nparams != b->nparams)
		return 0;
	for (size_t k = 0; k < a->nparams; k++)
		if (a->params[k] != b->params[k])
			return 0;
	return 1;
}

static int index_rows(struct rep *r)
{
	const struct iw_results *res = r->res;
	int err = 0;
	/* the baseline first, then the schemes in file order */
	for (size_t i = 0; i < res->n && !err; i++)
		if (!strcmp(res->rows[i].scheme, "inorder")) {
			find_or_add(&r->schemes, &r->nsch, res->rows[i].scheme, &err);
			break;
		}
	r->cfg_of = iw_calloc(res->n ? res->n : 1, sizeof *r->cfg_of);
	r->first_row = iw_calloc(res->n ? res->n : 1, sizeof *r->first_row);
	if (!r->cfg_of || !r->first_row)
		return iw_fail(r->e, IW_ERUN, "out of memory");
	for (size_t i = 0; i < res->n && !err; i++) {
		const struct iw_row *x = &res->rows[i];
		find_or_add(&r->schemes, &r->nsch, x->scheme, &err);
		find_or_add(&r->workloads, &r->nwl, x->workload, &err);
		size_t c = 0;
		/* rows of one configuration are contiguous in a sweep: check the last first */
		if (r->ncfg && same_params(x, &res->rows[r->first_row[r->ncfg - 1]]))
			c = r->ncfg - 1;
		else {
			for (c = 0; c < r->ncfg; c++)
				if (same_params(x, &res->rows[r->first_row[c]]))
					break;
			if (c == r->ncfg)
				r->first_row[r->ncfg++] = i;
		}
		r->cfg_of[i] = c;
	}
	if (err)
		return iw_fail(r->e, IW_ERUN, "out of memory");
	if (wl_labels(r))
		return -r->e->code;
	size_t cells = (r->ncfg ? r->ncfg : 1) * (r->nwl ? r->nwl : 1) * (r->nsch ? r->nsch : 1);
	r->idx = iw_malloc(cells * sizeof *r->idx);
	if (!r->idx)
		return iw_fail(r->e, IW_ERUN, "out of memory");
	for (size_t i = 0; i < cells; i++)
		r->idx[i] = -1;
	for (size_t i = 0; i < res->n; i++) {
		size_t w = 0, s = 0;
		while (strcmp(r->workloads[w], res->rows[i].workload))
			w++;
		while (strcmp(r->schemes[s], res->rows[i].scheme))
			s++;
		r->idx[(r->cfg_of[i] * r->nwl + w) * r->nsch + s] = (long)i;
	}
	/* replicates: run.seed is swept and every other parameter has one value */
	int seed = -1;
	for (size_t k = 0; k < res->nparams; k++)
		if (!strcmp(res->param_names[k], "run.seed"))
			seed = (int)k;
	r->replicates = seed >= 0 && r->ncfg > 1;
	for (size_t c = 1; c < r->ncfg && r->replicates; c++)
		for (size_t k = 0; k < res->nparams; k++)
			if ((int)k != seed && res->rows[r->first_row[c]].params[k] != res->rows[r->first_row[0]].params[k])
				r->replicates = 0;
	return 0;
}

/* ------------------------------------------------------------- metrics */
enum metric { M_SPEEDUP, M_IPC, M_ADP, M_PDP, M_ENERGY, M_EDP, M_SM_SPEEDUP };
static const char *const metric_name[] = {"speed-up", "IPC", "ADP", "PDP", "energy", "EDP", "throughput speed-up (mean SM busy time)"};

/* The metric of one run against its baseline; NaN when undefined. */
static double metric(const struct rep *r, size_t c, size_t w, size_t s, enum metric m)
{
	long i = at(r, c, w, s), b = at(r, c, w, 0);
	if (i < 0)
		return NAN;
	const struct iw_row *x = &r->res->rows[i];
	switch (m) {
	case M_SPEEDUP: return x->speedup;
	case M_IPC: return b >= 0 && r->res->rows[b].run.ipc > 0 ? x->run.ipc / r->res->rows[b].run.ipc : NAN;
	case M_ADP: return x->adp_rel;
	case M_PDP: return x->pdp_rel;
	case M_ENERGY: return x->energy_rel;
	case M_EDP: return x->edp_rel;
	case M_SM_SPEEDUP: return x->sm_speedup; /* (NaN in files of earlier versions) */
	}
	return NAN;
}

/* Geometric mean of the finite positive values (NaN if none). */
struct gm {
	double logsum;
	size_t n;
};
static void gm_add(struct gm *g, double v)
{
	if (isfinite(v) && v > 0) {
		g->logsum += log(v);
		g->n++;
	}
}
static double gm_get(const struct gm *g) { return g->n ? exp(g->logsum / (double)g->n) : NAN; }

/* Metric over workloads for configuration c and scheme s. */
static double over_workloads(const struct rep *r, size_t c, size_t s, enum metric m)
{
	struct gm g = {0, 0};
	for (size_t w = 0; w < r->nwl; w++)
		gm_add(&g, metric(r, c, w, s, m));
	return gm_get(&g);
}

/* Metric over configurations for workload w and scheme s. */
static double over_configs(const struct rep *r, size_t w, size_t s, enum metric m)
{
	struct gm g = {0, 0};
	for (size_t c = 0; c < r->ncfg; c++)
		gm_add(&g, metric(r, c, w, s, m));
	return gm_get(&g);
}

/* Metric over configurations for workload w and scheme s with its band:
 * over replicates (r->replicates) the 95% confidence interval of the
 * geometric mean (Student's t on the logarithms, where the geometric mean
 * is an arithmetic one; back on the ratio scale the interval stays above 0);
 * over design points the lowest and highest value.  One value: lo = hi. */
struct band {
	double mid, lo, hi;
	size_t n;
};
/* w < nwl: workload w; w == nwl: the geometric mean over workloads of each
 * configuration (a replicate's aggregate, so the band is over replicates). */
static struct band over_configs_band(const struct rep *r, size_t w, size_t s, enum metric m)
{
	struct band b = {NAN, NAN, NAN, 0};
	double sum = 0, sq = 0, lo = INFINITY, hi = -INFINITY;
	for (size_t c = 0; c < r->ncfg; c++) {
		double v = w < r->nwl ? metric(r, c, w, s, m) : over_workloads(r, c, s, m);
		if (!(isfinite(v) && v > 0))
			continue;
		double l = log(v);
		sum += l;
		sq += l * l;
		lo = l < lo ? l : lo;
		hi = l > hi ? l : hi;
		b.n++;
	}
	if (!b.n)
		return b;
	double mean = sum / (double)b.n;
	b.mid = exp(mean);
	if (r->replicates && b.n > 1) {
		double var = (sq - (double)b.n * mean * mean) / (double)(b.n - 1);
		double half = gsl_cdf_tdist_Pinv(0.975, (double)(b.n - 1)) * sqrt(var > 0 ? var : 0) / sqrt((double)b.n);
		b.lo = exp(mean - half);
		b.hi = exp(mean + half);
	} else {
		b.lo = exp(lo);
		b.hi = exp(hi);
	}
	return b;
}

/* What a band means, for captions and data files. */
static const char *band_meaning(const struct rep *r)
{
	return r->replicates ? "95% confidence interval of the mean over the seeds (Student's t on the logarithms)"
			     : "lowest and highest over the configurations";
}

/* --------------------------------------------------------------- files */
/* The report is written whole into a staging folder inside the report's
 * folder (.report.HOST.PID.XXXXXX, iw_report_write) and moved into place only when
 * every file of it is complete, index.html last: a report that fails leaves
 * the folder as it found it (a report already there stays whole), and a
 * present index.html means a complete report. */
static void file_path(const struct rep *r, const char *name, const char *ext, char *path, size_t n)
{
	snprintf(path, n, "%s/%s%s", r->dir, name, ext);
}

static FILE *open_in(struct rep *r, const char *name, const char *ext)
{
	char path[4096];
	file_path(r, name, ext, path, sizeof path);
	FILE *f = fopen(path, "w");
	if (!f)
		iw_fail(r->e, IW_ERUN, "%s/%s%s: cannot write (%s)", r->out, name, ext, strerror(errno));
	return f;
}

static int close_file(struct rep *r, FILE *f, const char *name, const char *ext)
{
	int bad = ferror(f);
	bad |= fclose(f) != 0;
	return bad ? iw_fail(r->e, IW_ERUN, "%s/%s%s: write failed", r->out, name, ext) : 0;
}

static void drop_file(struct rep *r, FILE *f, const char *name, const char *ext)
{
	char path[4096];
	file_path(r, name, ext, path, sizeof path);
	fclose(f);
	unlink(path);
}

/* The names of a report's files, kept beside them: the next report into the
 * folder removes those it does not make itself (a sweep's heat maps and
 * Pareto front when a single run's report follows), and never a file no
 * report made. */
#define MANIFEST ".report-files"

static int write_manifest(DIR *d, const char *stage, const char *out, struct iw_err *e)
{
	char path[4096];
	FILE *f = (size_t)snprintf(path, sizeof path, "%s/" MANIFEST, stage) < sizeof path ? fopen(path, "w") : NULL;
	if (!f)
		return iw_fail(e, IW_ERUN, "%s/" MANIFEST ": cannot write (%s)", out, strerror(errno));
	rewinddir(d);
	for (struct dirent *de; (de = readdir(d));)
		if (de->d_name[0] != '.')
			fprintf(f, "%s\n", de->d_name);
	int bad = ferror(f);
	bad |= fclose(f) != 0;
	return bad ? iw_fail(e, IW_ERUN, "%s/" MANIFEST ": write failed", out) : 0;
}

/* Remove the files the earlier report in `out` listed that this one (still
 * whole in `stage`) does not make. */
static void drop_stale(const char *stage, const char *out)
{
	char path[4096], name[512];
	FILE *f = (size_t)snprintf(path, sizeof path, "%s/" MANIFEST, out) < sizeof path ? fopen(path, "r") : NULL;
	if (!f)
		return;
	while (fgets(name, sizeof name, f)) {
		name[strcspn(name, "\n")] = 0;
		if (!*name || name[0] == '.' || strchr(name, '/'))
			continue; /* (not a name a report writes: left alone) */
		if ((size_t)snprintf(path, sizeof path, "%s/%s", stage, name) >= sizeof path || access(path, F_OK) == 0)
			continue;
		if ((size_t)snprintf(path, sizeof path, "%s/%s", out, name) < sizeof path)
			unlink(path);
	}
	fclose(f);
}

/* Move every file of the staging folder into the report's folder, the
 * manifest and then index.html last, or, with keep = 0, remove them; then
 * the staging folder. */
static int unstage(const char *stage, const char *out, int keep, struct iw_err *e)
{
	DIR *d = opendir(stage);
	int rc = 0;
	if (!d && keep)
		rc = iw_fail(e, IW_ERUN, "%s: cannot read (%s)", stage, strerror(errno));
	if (d && keep && (rc = write_manifest(d, stage, out, e)) == 0)
		drop_stale(stage, out);
	char from[4096], to[4096];
	for (int pass = 0; d && pass < 3; pass++) {
		rewinddir(d);
		for (struct dirent *de; (de = readdir(d));) {
			const char *n = de->d_name;
			if (pass == 0 ? n[0] == '.' || strcmp(n, "index.html") == 0
				      : strcmp(n, pass == 1 ? MANIFEST : "index.html") != 0)
				continue;
			if ((size_t)snprintf(from, sizeof from, "%s/%s", stage, n) >= sizeof from)
				continue; /* (cannot be: the staging folder's names are the report's) */
			int long_name = (size_t)snprintf(to, sizeof to, "%s/%s", out, n) >= sizeof to;
			if (keep && rc == 0 && long_name)
				rc = iw_fail(e, IW_ERUN, "%s: the report folder's path is too long", out);
			else if (keep && rc == 0 && rename(from, to) != 0)
				rc = iw_fail(e, IW_ERUN, "%s: cannot write (%s)", to, strerror(errno));
			if (!keep || rc)
				unlink(from);
		}
	}
	if (d)
		closedir(d);
	rmdir(stage);
	return rc;
}

/* The staging folder is named .report.HOST.PID.XXXXXX, so that a later
 * report can tell a folder whose report was killed outright (SIGKILL, the
 * kernel's out-of-memory killer) from one another report is writing at this
 * moment: one of this host whose process is gone is removed; any other is
 * left alone (a running report's, another host's on a shared file system,
 * or a name only an older version made).  HOST is the host name with every
 * character but letters, digits and '-' made a '-'. */
static void host_tag(char *h, size_t n)
{
	if (gethostname(h, n) != 0)
		h[0] = 0;
	h[n - 1] = 0;
	for (char *c = h; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '-')
			*c = '-';
	if (!*h)
		snprintf(h, n, "host");
}

/* Remove the staging folders in dir of reports of this host (tag `host`)
 * whose process no longer exists, as a failed report removes its own. */
static void drop_orphans(const char *dir, const char *host, struct iw_err *e)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	size_t hl = strlen(host);
	for (struct dirent *de; (de = readdir(d));) {
		const char *n = de->d_name, *p = n + 8 + hl + 1;
		if (strncmp(n, ".report.", 8) != 0 || strncmp(n + 8, host, hl) != 0 || n[8 + hl] != '.' ||
		    !isdigit((unsigned char)*p))
			continue;
		char *end;
		errno = 0;
		long pid = strtol(p, &end, 10);
		if (errno || pid <= 0 || (pid_t)pid != pid || *end != '.' || strlen(end + 1) != 6)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue; /* running (or not ours to ask: left alone) */
		char stage[4096];
		if ((size_t)snprintf(stage, sizeof stage, "%s/%s", dir, n) < sizeof stage)
			unstage(stage, dir, 0, e);
	}
	closedir(d);
}

/* gnuplot strings are single-quoted: double any quote. */
static void gq(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/* Data-file tokens must have no blanks (gnuplot splits on them). */
static void tok(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == ' ' || *s == '\t' || *s == '"' ? '_' : *s, f);
}

static void num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, " %.9g", v);
	else
		fprintf(f, " NaN");
}

static FILE *begin_fig(struct rep *r, const char *name, const char *title, int w, int h, const char *caption)
{
	if (r->nfigs >= IW_ARRAY_LEN(r->figs)) {
		iw_fail(r->e, IW_ERUN, "internal: too many figures");
		return NULL;
	}
	struct fig *g = &r->figs[r->nfigs++];
	snprintf(g->name, sizeof g->name, "%s", name);
	snprintf(g->title, sizeof g->title, "%s", title);
	snprintf(g->caption, sizeof g->caption, "%s", caption);
	g->w = w;
	g->h = h;
	FILE *f = open_in(r, name, ".gp");
	if (f)
		fprintf(f, "# %s -- %s\n# Data: %s.dat.  Render (the terminal is chosen on the command line):\n"
			   "#   gnuplot -e \"set terminal svg size %d,%d; set output '%s.svg'\" %s.gp\n"
			   "#   gnuplot -e \"set terminal pngcairo size %d,%d; set output '%s.png'\" %s.gp\n",
			name, title, name, w, h, name, name, w, h, name, name);
	if (f) /* parameter names hold underscores: no enhanced-text subscripts */
		fprintf(f, "set termoption noenhanced\n");
	return f;
}

/* ------------------------------------------------------------ figures */
/* A scheme has one colour in every figure: gnuplot's line type (its index
 * among the file's schemes) + 1, the order the bar charts draw them in. */
/* The speed-up bar charts' style (histogram `hist`: clustered or with error
 * bars), a dashed line at 1 (as fast as in-order), and the start of `plot`. */
static void speedup_bars(FILE *f, const char *hist)
{
	fprintf(f, "set ylabel 'speed-up'\nset style data histograms\nset style histogram %s gap 1\n"
		   "set style fill solid 0.8 border -1\nset boxwidth 0.9\nset key outside right\nset grid ytics\n"
		   "set yrange [0:*]\nset arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2\nplot ",
		hist);
}

/* Workload w's kernel records, from its first configuration's baseline, when
 * it has several kernels (a trace); NULL otherwise. */
static const struct iw_run_result *kernels_of(const struct rep *r, size_t w)
{
	long b0 = at(r, 0, w, 0);
	const struct iw_run_result *ref = b0 >= 0 ? &r->res->rows[b0].run : NULL;
	return ref && ref->nkstats > 1 ? ref : NULL;
}

/* Scheme s's speed-up on kernel k of workload w over in-order: the
 * geometric mean over configurations. */
static double kernel_speedup(const struct rep *r, size_t w, size_t s, size_t k)
{
	struct gm g = {0, 0};
	for (size_t c = 0; c < r->ncfg; c++) {
		long bi = at(r, c, w, 0), ri = at(r, c, w, s);
		if (bi < 0 || ri < 0)
			continue;
		const struct iw_run_result *b = &r->res->rows[bi].run, *x = &r->res->rows[ri].run;
		if (k < b->nkstats && k < x->nkstats && x->kstats[k].cycles > 0)
			gm_add(&g, (double)b->kstats[k].cycles / (double)x->kstats[k].cycles);
	}
	return gm_get(&g);
}

/* Per workload of several kernels (at most IW_FIG_KERNEL_WLS of them): each
 * scheme's speed-up on each of its first IW_TEX_KERNELS kernels. */
#define IW_FIG_KERNEL_WLS 8
static int fig_kernels(struct rep *r)
{
	for (size_t w = 0, nfig = 0; w < r->nwl && nfig < IW_FIG_KERNEL_WLS; w++) {
		const struct iw_run_result *ref = kernels_of(r, w);
		if (!ref)
			continue;
		nfig++;
		size_t nk = IW_MIN(ref->nkstats, (size_t)IW_TEX_KERNELS);
		char name[32], title[384], cap[768];
		snprintf(name, sizeof name, "kernels_%zu", w + 1);
		FILE *d = open_in(r, name, ".dat");
		if (!d)
			return -r->e->code;
		fprintf(d, "# speed-up over inorder per kernel of %s, geometric mean over %zu %s\n# kernel", r->wl_label[w],
			r->ncfg, r->replicates ? "seeds" : "configuration(s)");
		for (size_t sc = 0; sc < r->nsch; sc++)
			fprintf(d, " %s", r->schemes[sc]);
		fprintf(d, " name\n");
		for (size_t k = 0; k < nk; k++) {
			fprintf(d, "%zu", k + 1);
			for (size_t sc = 0; sc < r->nsch; sc++)
				num(d, kernel_speedup(r, w, sc, k));
			fputc(' ', d);
			tok(d, ref->kstats[k].name);
			fputc('\n', d);
		}
		if (close_file(r, d, name, ".dat"))
			return -r->e->code;
		snprintf(title, sizeof title, "Speed-up per kernel of %s", r->wl_label[w]);
		snprintf(cap, sizeof cap, "Speed-up of each scheme over the in-order baseline on each kernel of %s, in launch "
					  "order%s (geometric mean over %zu %s; the names are in the data file and kernels.csv).",
			 r->wl_label[w], nk < ref->nkstats ? ", the first ones" : "", r->ncfg,
			 r->replicates ? "seeds" : "configuration(s)");
		FILE *f = begin_fig(r, name, title, 900, 500, cap);
		if (!f)
			return -r->e->code;
		fprintf(f, "set title 'Speed-up over in-order per kernel'\nset xlabel 'kernel (launch order)'\n");
		speedup_bars(f, "clustered");
		for (size_t sc = 0; sc < r->nsch; sc++) {
			fprintf(f, "%s'%s.dat' using %zu%s title ", sc ? ", " : "", name, sc + 2, sc ? "" : ":xtic(1)");
			gq(f, r->schemes[sc]);
		}
		fputc('\n', f);
		if (close_file(r, f, name, ".gp"))
			return -r->e->code;
	}
	return 0;
}

/* The speed-up figure (`name` "speedup": of the kernel time) or its twin
 * "sm_speedup" (of the mean SM busy time: the throughput without the
 * slowest SM's tail, which moves a run by a percent or two). */
/* Files of earlier versions lack sm_speedup: no figure or table of it. */
static int has_sm_speedup(const struct rep *r)
{
	for (size_t i = 0; i < r->res->n; i++)
		if (isfinite(r->res->rows[i].sm_speedup))
			return 1;
	return 0;
}

static int fig_speedup(struct rep *r, enum metric m)
{
	const char *name = m == M_SPEEDUP ? "speedup" : "sm_speedup";
	const char *what = m == M_SPEEDUP ? "Speed-up" : "Throughput speed-up (mean SM busy time)";
	if (m == M_SM_SPEEDUP && !has_sm_speedup(r))
		return 0;
	FILE *d = open_in(r, name, ".dat");
	if (!d)
		return -r->e->code;
	int bars = r->ncfg > 1;
	fprintf(d, "# %s over inorder, geometric mean over %zu %s\n", metric_name[m], r->ncfg,
		r->replicates ? "seeds" : "configuration(s)");
	if (bars)
		fprintf(d, "# each scheme's columns: mean, then the %s\n", band_meaning(r));
	fprintf(d, "# workload");
	for (size_t s = 0; s < r->nsch; s++) {
		fprintf(d, " %s", r->schemes[s]);
		if (bars)
			fprintf(d, " %s_lo %s_hi", r->schemes[s], r->schemes[s]);
	}
	fputc('\n', d);
	for (size_t w = 0; w < r->nwl; w++) {
		tok(d, r->wl_label[w]);
		for (size_t s = 0; s < r->nsch; s++) {
			struct band b = over_configs_band(r, w, s, m);
			num(d, b.mid);
			if (bars) {
				num(d, b.lo);
				num(d, b.hi);
			}
		}
		fputc('\n', d);
	}
	if (close_file(r, d, name, ".dat"))
		return -r->e->code;
	char cap[768], title[128];
	const char *of = m == M_SPEEDUP ? "" : " of the mean SM busy time (per SM and kernel, first CTA launch to last CTA "
					       "end: the GPU's throughput, without the slowest SM's tail)";
	if (bars)
		snprintf(cap, sizeof cap, "%s of each scheme over the in-order baseline per workload%s (geometric mean over "
					  "%zu %s; bars: %s; 1 = as fast as in-order).", "Speed-up",
			 of, r->ncfg, r->replicates ? "seeds" : "configurations", band_meaning(r));
	else
		snprintf(cap, sizeof cap, "%s of each scheme over the in-order baseline per workload%s (geometric mean over "
					  "%zu configuration(s); 1 = as fast as in-order).", "Speed-up", of, r->ncfg);
	snprintf(title, sizeof title, "%s per workload and scheme", what);
	FILE *f = begin_fig(r, name, title, 900, 500, cap);
	if (!f)
		return -r->e->code;
	fprintf(f, "set title '%s over in-order'\nset xtics rotate by -30\n", what);
	speedup_bars(f, bars ? "errorbars lw 1" : "clustered");
	for (size_t s = 0; s < r->nsch; s++) {
		size_t col = bars ? 2 + 3 * s : s + 2;
		if (bars)
			fprintf(f, "%s'%s.dat' using %zu:%zu:%zu%s title ", s ? ", " : "", name, col, col + 1, col + 2,
				s ? "" : ":xtic(1)");
		else
			fprintf(f, "%s'%s.dat' using %zu%s title ", s ? ", " : "", name, col, s ? "" : ":xtic(1)");
		gq(f, r->schemes[s]);
	}
	fputc('\n', f);
	return close_file(r, f, name, ".gp");
}

static double model_se(const struct rep *r, size_t c0, size_t c1, size_t w0, size_t w1, size_t s, enum metric m);

/* A configuration of a scheme in the design space: its cost x (area or
 * energy over in-order) with its model error, and its speed-up. */
struct dpoint {
	double x, sp, se;
	size_t c;
};
static int dpoint_cmp(const void *a, const void *b)
{
	const struct dpoint *p = a, *q = b;
	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	if (p->sp != q->sp)
		return p->sp > q->sp ? -1 : 1;
	return p->c < q->c ? -1 : p->c > q->c;
}

/* The design space (a sweep of several configurations): each configuration
 * of each scheme as a point, speed-up against area and against energy over
 * in-order (geometric means over the workloads; area = ADP x speed-up), and
 * each scheme's Pareto fronts, the configurations no other of the same
 * scheme beats on both (at least as fast at no more cost, better in one);
 * with a calibrated technology file, bars of one standard error of the cost
 * (the model's; the speed-up has none).  pareto.dat holds per scheme and
 * cost (area, then energy) a block of every configuration, cheapest first,
 * with a front column (1 on the front) and the swept parameters, and a
 * block of its front; block (scheme - 1) * 4 + 2 * cost (+ 1 for the front). */
static int fig_pareto(struct rep *r)
{
	if (r->ncfg < 2 || r->replicates || r->nsch < 2)
		return 0;
	const struct iw_results *res = r->res;
	struct dpoint *pt = iw_calloc(r->ncfg, sizeof *pt);
	unsigned char *front = iw_calloc(r->ncfg, 1);
	FILE *d = pt && front ? open_in(r, "pareto", ".dat") : NULL;
	if (!d) {
		iw_free(pt);
		iw_free(front);
		return pt && front ? -r->e->code : iw_fail(r->e, IW_ERUN, "out of memory");
	}
	static const char *const cost[2] = {"area", "energy"};
	fprintf(d, "# speed-up against area and against energy of each configuration over in-order, geometric means\n"
		   "# over %zu workload(s); per scheme after inorder (%zu) and cost: a block of every configuration,\n"
		   "# cheapest first, then a block of its Pareto front; *_se: one standard error from the cost model\n",
		r->nwl, r->nsch - 1);
	int any_se = 0;
	for (size_t s = 1; s < r->nsch; s++)
		for (int k = 0; k < 2; k++) {
			size_t n = 0;
			for (size_t c = 0; c < r->ncfg; c++) {
				double sp = over_workloads(r, c, s, M_SPEEDUP);
				struct dpoint p = {k ? over_workloads(r, c, s, M_ENERGY) : over_workloads(r, c, s, M_ADP) * sp, sp,
						   0, c};
				if (!isfinite(p.x) || !isfinite(p.sp))
					continue;
				p.se = k ? model_se(r, c, c + 1, 0, r->nwl, s, M_ENERGY)
					 : model_se(r, c, c + 1, 0, r->nwl, s, M_ADP) * sp;
				any_se |= p.se > 0;
				pt[n++] = p;
			}
			qsort(pt, n, sizeof *pt, dpoint_cmp);
			/* cheapest first: a point is on the front when it is faster
			 * than every point before it (which all cost no more) */
			double best = -INFINITY;
			for (size_t i = 0; i < n; i++) {
				front[i] = pt[i].sp > best;
				if (front[i])
					best = pt[i].sp;
			}
			for (int blk = 0; blk < 2; blk++) {
				fprintf(d, "# %s, %s: %s\n# %s_rel speedup %s_se front", r->schemes[s], cost[k],
					blk ? "Pareto front" : "every configuration", cost[k], cost[k]);
				for (size_t q = 0; q < res->nparams; q++) {
					fputc(' ', d);
					tok(d, res->param_names[q]);
				}
				fputc('\n', d);
				for (size_t i = 0; i < n; i++) {
					if (blk && !front[i])
						continue;
					num(d, pt[i].x);
					num(d, pt[i].sp);
					num(d, pt[i].se);
					fprintf(d, " %d", front[i]);
					const double *pv = res->rows[r->first_row[pt[i].c]].params;
					for (size_t q = 0; q < res->nparams; q++) {
						/* a name where the value has one (a column gnuplot does not plot) */
						char b[64];
						fputc(' ', d);
						tok(d, isfinite(pv[q]) ? iw_param_text(res->param_names[q], pv[q], "%.9g", b, sizeof b)
								       : "NaN");
					}
					fputc('\n', d);
				}
				fprintf(d, "\n\n");
			}
		}
	iw_free(pt);
	iw_free(front);
	if (close_file(r, d, "pareto", ".dat"))
		return -r->e->code;
	char cap[768];
	snprintf(cap, sizeof cap,
		 "Design space: speed-up against area and against energy over the in-order baseline of each of the %zu "
		 "configurations (geometric means over %zu workload(s)); ringed points joined by a line: each scheme's Pareto front, the "
		 "configurations no other of the scheme is both at least as fast as and no costlier than, each named by "
		 "its parameters%s; pareto.dat names every configuration's.",
		 r->ncfg, r->nwl, any_se ? "; bars: one standard error of the cost from the calibrated cost model" : "");
	FILE *f = begin_fig(r, "pareto", "Speed-up against area and energy per configuration", 1200, 550, cap);
	if (!f)
		return -r->e->code;
	fprintf(f, "set multiplot layout 1,2 title 'Speed-up against cost, relative to in-order'\nset ylabel 'speed-up'\n"
		   "set grid\nset key bottom right\n");
	for (int k = 0; k < 2; k++) {
		fprintf(f, "set xlabel '%s relative to in-order'\nunset arrow\n"
			   "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2\nplot ", cost[k]);
		for (size_t s = 1; s < r->nsch; s++) {
			size_t blk = (s - 1) * 4 + 2 * (size_t)k;
			fprintf(f, "%s'pareto.dat' index %zu using 1:2%s with %s lc %zu pt 7 ps 0.6 title ", s > 1 ? ", " : "",
				blk, any_se ? ":3" : "", any_se ? "xerrorbars" : "points", s + 1);
			gq(f, r->schemes[s]);
			/* (points ringed too: a front of one configuration, which
			 * beats every other, draws no line) */
			fprintf(f, ", 'pareto.dat' index %zu using 1:2 with linespoints lc %zu lw 2 pt 6 ps 1.4 notitle",
				blk + 1, s + 1);
			/* each front point named by its parameters (short names:
			 * 'ib_size=16'), so the figure alone says which is which */
			if (res->nparams) {
				fprintf(f, ", 'pareto.dat' index %zu using 1:2:(", blk + 1);
				for (size_t q = 0; q < res->nparams; q++) {
					const char *nm = strrchr(res->param_names[q], '.');
					char lab[160];
					snprintf(lab, sizeof lab, "%s%s=", q ? " " : "", nm ? nm + 1 : res->param_names[q]);
					if (q)
						fputs(" . ", f);
					gq(f, lab);
					fprintf(f, " . strcol(%zu)", 5 + q);
				}
				fprintf(f, ") with labels left offset char 0.8,0.4 font ',8' tc lt %zu notitle", s + 1);
			}
		}
		fputc('\n', f);
	}
	fprintf(f, "unset multiplot\n");
	return close_file(r, f, "pareto", ".gp");
}

/* The two heat-map axes and the facets (every other parameter). */
struct grid {
	int kx, ky;               /* parameter indices */
	double *xv, *yv;          /* sorted distinct values */
	size_t nx, ny;
	size_t nrest, rest[62];
	double *rv[62];
	size_t rn[62];
	size_t nfacets;
};

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static size_t distinct(const struct rep *r, size_t k, double **out)
{
	double *v = iw_malloc((r->ncfg ? r->ncfg : 1) * sizeof *v);
	size_t n = 0;
	if (!v)
		return 0;
	for (size_t c = 0; c < r->ncfg; c++)
		v[n++] = r->res->rows[r->first_row[c]].params[k];
	qsort(v, n, sizeof *v, cmp_dbl);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!m || v[m - 1] != v[i])
			v[m++] = v[i];
	*out = v;
	return m;
}

static int param_index(const struct iw_results *res, const char *key)
{
	for (size_t k = 0; k < res->nparams; k++)
		if (!strcmp(res->param_names[k], key))
			return (int)k;
	return -1;
}

static void facet_values(const struct grid *g, size_t f, double *vals)
{
	for (size_t j = g->nrest; j-- > 0;) {
		vals[j] = g->rv[j][f % g->rn[j]];
		f /= g->rn[j];
	}
}

static long find_cfg(const struct rep *r, const struct grid *g, size_t xi, size_t yi, const double *rest)
{
	for (size_t c = 0; c < r->ncfg; c++) {
		const double *p = r->res->rows[r->first_row[c]].params;
		if (p[g->kx] != g->xv[xi] || p[g->ky] != g->yv[yi])
			continue;
		size_t j = 0;
		while (j < g->nrest && p[g->rest[j]] == rest[j])
			j++;
		if (j == g->nrest)
			return (long)c;
	}
	return -1;
}

/* An axis's label from the spec (<axis label="...">), else its key. */
static const char *label_of(struct rep *r, const char *key)
{
	static char buf[128];
	snprintf(buf, sizeof buf, "%s", key);
	if (!r->res->sweep_xml)
		return buf;
	xmlDocPtr doc = xmlReadMemory(r->res->sweep_xml, (int)strlen(r->res->sweep_xml), "spec", NULL, XML_PARSE_NONET);
	if (!doc)
		return buf;
	for (xmlNodePtr c = xmlDocGetRootElement(doc)->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE || strcmp((const char *)c->name, "axis"))
			continue;
		xmlChar *k = xmlGetProp(c, (const xmlChar *)"key"), *l = xmlGetProp(c, (const xmlChar *)"label");
		if (k && l && !strcmp((const char *)k, key))
			snprintf(buf, sizeof buf, "%s (%s)", (const char *)l, key);
		xmlFree(k);
		xmlFree(l);
	}
	xmlFreeDoc(doc);
	return buf;
}

static int fig_heat(struct rep *r, struct grid *g, enum metric m, size_t s)
{
	const struct iw_results *res = r->res;
	char name[64];
	snprintf(name, sizeof name, "heat_%s_%s", m == M_IPC ? "ipc" : m == M_ADP ? "adp" : "pdp", r->schemes[s]);
	FILE *d = open_in(r, name, ".dat");
	if (!d)
		return -r->e->code;
	fprintf(d, "# %s of %s relative to inorder (geometric mean over workloads)\n"
		   "# one block per facet (gnuplot index); columns: %s_index %s_index value %s %s\n",
		metric_name[m], r->schemes[s], res->param_names[g->kx], res->param_names[g->ky], res->param_names[g->kx],
		res->param_names[g->ky]);
	double rest[62], dev = 0.01;
	for (size_t f = 0; f < g->nfacets; f++) {
		facet_values(g, f, rest);
		fprintf(d, "# facet %zu:", f);
		for (size_t j = 0; j < g->nrest; j++) {
			char b[64];
			const char *key = res->param_names[g->rest[j]];
			fprintf(d, " %s=%s", key, iw_param_text(key, rest[j], "%g", b, sizeof b));
		}
		fputc('\n', d);
		for (size_t yi = 0; yi < g->ny; yi++) {
			for (size_t xi = 0; xi < g->nx; xi++) {
				long c = find_cfg(r, g, xi, yi, rest);
				double v = c >= 0 ? over_workloads(r, (size_t)c, s, m) : NAN;
				fprintf(d, "%zu %zu", xi, yi);
				num(d, v);
				if (isfinite(v) && fabs(v - 1) > dev)
					dev = fabs(v - 1);
				fprintf(d, " %g %g\n", g->xv[xi], g->yv[yi]);
			}
			fputc('\n', d);
		}
		fputc('\n', d);
	}
	if (close_file(r, d, name, ".dat"))
		return -r->e->code;
	size_t cols = g->nrest == 0 ? 1 : g->rn[g->nrest - 1];
	if (g->nrest == 1 && cols > 4)
		cols = 4;
	size_t rows = (g->nfacets + cols - 1) / cols;
	char title[160], cap[768];
	snprintf(title, sizeof title, "%s heat map, %s", metric_name[m], r->schemes[s]);
	snprintf(cap, sizeof cap,
		 "%s of %s relative to the in-order baseline of the same configuration (geometric mean over %zu "
		 "workload(s)) over %s x %s%s%s. %s",
		 metric_name[m], r->schemes[s], r->nwl, res->param_names[g->kx], res->param_names[g->ky],
		 g->nrest ? ", one panel per value of the other swept parameters" : "", "",
		 m == M_IPC ? "Above 1 is better." : "Below 1 is better.");
	FILE *f = begin_fig(r, name, title, (int)IW_MIN(2400, 120 + 300 * cols), (int)IW_MIN(2400, 60 + 260 * rows), cap);
	if (!f)
		return -r->e->code;
	fprintf(f, "set multiplot layout %zu,%zu title ", rows, cols);
	char t2[256];
	snprintf(t2, sizeof t2, "%s / inorder, %s", metric_name[m], r->schemes[s]);
	gq(f, t2);
	/* better than the baseline is blue, worse is red, whichever direction is better */
	fprintf(f, "\nset palette defined (0 '%s', 1 '#f7f7f7', 2 '%s')\n", m == M_IPC ? "#b2182b" : "#2166ac",
		m == M_IPC ? "#2166ac" : "#b2182b");
	/* The colour scale is centred on 1 (the baseline) so better and worse read at a glance. */
	fprintf(f, "set cbrange [%.6g:%.6g]\n", 1 - dev, 1 + dev);
	fprintf(f, "set xrange [-0.5:%zu.5]\nset yrange [-0.5:%zu.5]\n", g->nx - 1, g->ny - 1);
	fprintf(f, "set xlabel ");
	gq(f, label_of(r, res->param_names[g->kx]));
	fprintf(f, "\nset ylabel ");
	gq(f, label_of(r, res->param_names[g->ky]));
	char b[64];
	fprintf(f, "\nset xtics (");
	for (size_t i = 0; i < g->nx; i++)
		fprintf(f, "%s'%s' %zu", i ? ", " : "", iw_param_text(res->param_names[g->kx], g->xv[i], "%g", b, sizeof b), i);
	fprintf(f, ")\nset ytics (");
	for (size_t i = 0; i < g->ny; i++)
		fprintf(f, "%s'%s' %zu", i ? ", " : "", iw_param_text(res->param_names[g->ky], g->yv[i], "%g", b, sizeof b), i);
	fprintf(f, ")\nunset key\n");
	for (size_t fi = 0; fi < g->nfacets; fi++) {
		facet_values(g, fi, rest);
		char ft[512] = "";
		for (size_t j = 0; j < g->nrest; j++)
			snprintf(ft + strlen(ft), sizeof ft - strlen(ft), "%s%s=%s", j ? ", " : "", res->param_names[g->rest[j]],
				 iw_param_text(res->param_names[g->rest[j]], rest[j], "%g", b, sizeof b));
		fprintf(f, "set title ");
		gq(f, ft);
		fprintf(f, "\nplot '%s.dat' index %zu using 1:2:3 with image, '' index %zu using 1:2:(sprintf('%%.2f', $3)) "
			   "with labels font ',8'\n",
			name, fi, fi);
	}
	fprintf(f, "unset multiplot\n");
	return close_file(r, f, name, ".gp");
}

static int figs_heat(struct rep *r)
{
	const struct iw_results *res = r->res;
	if (res->nparams < 2)
		return 0;
	struct grid g;
	memset(&g, 0, sizeof g);
	g.kx = param_index(res, "sm.max_warps");
	g.ky = param_index(res, "sm.warp_size");
	if (g.kx < 0)
		g.kx = g.ky == 0 ? 1 : 0;
	if (g.ky < 0)
		for (g.ky = 0; g.ky == g.kx; g.ky++)
			;
	int rc = 0;
	g.nx = distinct(r, (size_t)g.kx, &g.xv);
	g.ny = distinct(r, (size_t)g.ky, &g.yv);
	g.nfacets = 1;
	for (size_t k = 0; k < res->nparams && k < 64; k++) {
		if ((int)k == g.kx || (int)k == g.ky)
			continue;
		g.rest[g.nrest] = k;
		g.rn[g.nrest] = distinct(r, k, &g.rv[g.nrest]);
		g.nfacets *= g.rn[g.nrest] ? g.rn[g.nrest] : 1;
		g.nrest++;
	}
	if (!g.xv || !g.yv)
		rc = iw_fail(r->e, IW_ERUN, "out of memory");
	/* every scheme but the baseline (which is 1 everywhere by definition) */
	for (size_t s = r->nsch > 1 ? 1 : 0; s < r->nsch && rc == 0; s++)
		for (int m = 0; m < 3 && rc == 0; m++)
			rc = fig_heat(r, &g, m == 0 ? M_IPC : m == 1 ? M_ADP : M_PDP, s);
	iw_free(g.xv);
	iw_free(g.yv);
	for (size_t j = 0; j < g.nrest; j++)
		iw_free(g.rv[j]);
	return rc;
}

/* one fixed colour per structure (Tableau 20 + greys), so figures of
 * different files compare: structure k, then the pipeline, then static */
static const char *const energy_col[] = {"#1f77b4", "#aec7e8", "#ff7f0e", "#ffbb78", "#2ca02c", "#98df8a", "#d62728",
					 "#ff9896", "#9467bd", "#c5b0d5", "#8c564b", "#c49c94", "#e377c2", "#f7b6d2",
					 "#7f7f7f", "#c7c7c7", "#bcbd22", "#dbdb8d", "#17becf", "#9edae5", "#a0a0a0",
					 "#404040"};
_Static_assert(IW_S_COUNT + 2 <= sizeof energy_col / sizeof energy_col[0], "a colour per energy column");

/* The energy columns of a run: structure k's dynamic energy (the fetch
 * structure without the pipeline's per-instruction energy, which is
 * column IW_S_COUNT), then static energy (IW_S_COUNT + 1); with `issue`,
 * a structure's leakage over the run is added to it and nothing else is
 * counted. */
static void energy_cols(const struct iw_row *x, int issue, double *v)
{
	for (int k = 0; k < IW_S_COUNT; k++)
		v[k] = x->power.dynamic_j[k] + (issue ? x->power.leakage_w[k] * x->seconds : 0);
	v[IW_S_FETCH] -= x->power.pipe_j;
	v[IW_S_COUNT] = x->power.pipe_j;
	v[IW_S_COUNT + 1] = x->power.static_j;
}

/* A stacked bar per scheme of the energy columns in [from, to] (mean over the
 * scheme's runs); columns that are 0 in every run are left out. */
static int energy_bars(struct rep *r, const char *name, const char *title, const char *caption, int issue, int from,
		       int to)
{
	FILE *d = open_in(r, name, ".dat");
	if (!d)
		return -r->e->code;
	fprintf(d, "# %s (J), mean over the runs of each scheme\n# scheme", title);
	for (int k = from; k <= to; k++)
		fprintf(d, " %s", k < IW_S_COUNT ? iw_structs[k].name : k == IW_S_COUNT ? "pipeline" : "static");
	fputc('\n', d);
	int used[IW_S_COUNT + 2] = {0};
	for (size_t s = 0; s < r->nsch; s++) {
		double sum[IW_S_COUNT + 2] = {0}, v[IW_S_COUNT + 2];
		size_t n = 0;
		for (size_t i = 0; i < r->res->n; i++) {
			const struct iw_row *x = &r->res->rows[i];
			if (strcmp(x->scheme, r->schemes[s]))
				continue;
			energy_cols(x, issue, v);
			for (int k = from; k <= to; k++) {
				sum[k] += v[k];
				used[k] |= v[k] != 0;
			}
			n++;
		}
		tok(d, r->schemes[s]);
		for (int k = from; k <= to; k++)
			num(d, n ? sum[k] / (double)n : NAN);
		fputc('\n', d);
	}
	if (close_file(r, d, name, ".dat"))
		return -r->e->code;
	FILE *f = begin_fig(r, name, title, 900, 550, caption);
	if (!f)
		return -r->e->code;
	fprintf(f, "set title ");
	gq(f, title);
	fprintf(f, "\nset ylabel 'energy (J)'\nset style data histograms\n"
		   "set style histogram rowstacked\nset style fill solid 0.85 border -1\nset boxwidth 0.6\n"
		   "set key outside right\nset grid ytics\nset yrange [0:*]\nplot ");
	int shown = 0;
	for (int k = from; k <= to; k++) {
		if (!used[k] && !(k == to && !shown))
			continue;
		fprintf(f, "%s'%s.dat' using %d%s lc rgb '%s' title ", shown ? ", " : "", name, k - from + 2,
			shown ? "" : ":xtic(1)", energy_col[k]);
		gq(f, k < IW_S_COUNT ? iw_structs[k].name : k == IW_S_COUNT ? "pipeline" : "static");
		shown++;
	}
	fputc('\n', f);
	return close_file(r, f, name, ".gp");
}

static int fig_energy(struct rep *r)
{
	int rc = energy_bars(r, "energy", "Energy per structure",
			     "Energy of each modelled structure per scheme (mean over its runs, whole GPU): dynamic per "
			     "structure; the pipeline's energy per warp-instruction (issue, operand crossbar, pipeline "
			     "registers; fitted, the same for every scheme); static (leakage, constant and idle power) on "
			     "top.",
			     0, 0, IW_S_COUNT + 1);
	if (rc)
		return rc;
	return energy_bars(r, "energy_issue", "Energy of the issue stage",
			   "Energy of the issue-stage structures per scheme (dynamic and leakage, mean over its runs, whole "
			   "GPU): the structures the schemes differ in, from the instruction buffer to the register file. "
			   "Fetch, the pipeline, the execution units, the memory system and the remaining static power are "
			   "in the figure above.",
			   1, IW_S_IB, IW_S_RF);
}

/* The stall stack: the reasons bottom up, those a scheme can change first
 * and idle (no warp resident: a kernel's tail, or SMs it leaves without work) on top, each with one colour. */
static const struct {
	enum iw_stall reason;
	const char *colour;
} stall_stack[] = {
	{IW_STALL_RAW, "#d62728"},     {IW_STALL_WAR_WAW, "#ff9896"}, {IW_STALL_MEM_ORDER, "#9467bd"},
	{IW_STALL_CONTROL, "#c5b0d5"}, {IW_STALL_BARRIER, "#8c564b"}, {IW_STALL_FU_BUSY, "#1f77b4"},
	{IW_STALL_NO_CU, "#ff7f0e"},   {IW_STALL_NO_RRS, "#ffbb78"},  {IW_STALL_IB_FULL, "#2ca02c"},
	{IW_STALL_IB_EMPTY, "#98df8a"}, {IW_STALL_IDLE, "#c7c7c7"},
};
_Static_assert(sizeof stall_stack / sizeof stall_stack[0] == IW_STALL_COUNT, "every stall reason in the stack");

/* Why the schedulers issued nothing: per workload and scheme, the
 * scheduler-cycles without an issue per warp-instruction by the reason the
 * cycle was charged to (a CPI stack, Eyerman et al., ACM TOCS 2009, for the
 * issue stage), over every configuration and seed.  A scheme's instructions
 * are the workload's, so its bar against in-order's is the cycles it saves
 * or loses, and where. */
static int fig_stalls(struct rep *r)
{
	FILE *d = open_in(r, "stalls", ".dat");
	if (!d)
		return -r->e->code;
	int used[IW_STALL_COUNT] = {0};
	fprintf(d, "# scheduler-cycles without an issue per warp-instruction, by reason (summed over the configurations)\n"
		   "# one block per workload: scheme");
	for (size_t k = 0; k < IW_ARRAY_LEN(stall_stack); k++)
		fprintf(d, " %s", iw_stall_name[stall_stack[k].reason]);
	fputc('\n', d);
	for (size_t w = 0; w < r->nwl; w++) {
		fprintf(d, "%s# ", w ? "\n\n" : "");
		tok(d, r->wl_label[w]);
		fputc('\n', d);
		for (size_t sc = 0; sc < r->nsch; sc++) {
			double st[IW_STALL_COUNT] = {0}, insts = 0;
			for (size_t c = 0; c < r->ncfg; c++) {
				long i = at(r, c, w, sc);
				if (i < 0)
					continue;
				const struct iw_row *x = &r->res->rows[i];
				for (int k = 0; k < IW_STALL_COUNT; k++)
					st[k] += (double)x->run.cnt.stall[k];
				insts += (double)x->run.warp_insts;
			}
			tok(d, r->schemes[sc]);
			for (size_t k = 0; k < IW_ARRAY_LEN(stall_stack); k++) {
				double v = insts > 0 ? st[stall_stack[k].reason] / insts : NAN;
				used[k] |= v > 0;
				num(d, v);
			}
			fputc('\n', d);
		}
	}
	if (close_file(r, d, "stalls", ".dat"))
		return -r->e->code;
	FILE *f = begin_fig(r, "stalls", "Stall cycles per warp-instruction", 900, 550,
			    "Scheduler-cycles in which a scheduler issued nothing, per warp-instruction, by the reason "
			    "the cycle was charged to (its first warp in scheduling order with a reason other than an "
			    "empty buffer), summed over the configurations of each workload: a stack of what each "
			    "scheme's issue stage waits for. idle: no warp resident (an SM or scheduler without work: a kernel's tail, or a kernel "
			    "of too few CTAs to fill the GPU, whose idle SMs count too); ib_empty: no "
			    "decoded instruction.");
	if (!f)
		return -r->e->code;
	fprintf(f, "set ylabel 'scheduler-cycles per warp-instruction'\nset style data histograms\n"
		   "set style histogram rowstacked title offset 0,-1\nset style fill solid 0.85 border -1\n"
		   "set boxwidth 0.75\nset key outside right\nset grid ytics\nset yrange [0:*]\nset xtics rotate by 90 "
		   "right scale 0 font ',9'\nset bmargin 7\nplot ");
	for (size_t w = 0; w < r->nwl; w++) {
		fprintf(f, "%snewhistogram ", w ? ", " : "");
		gq(f, r->wl_label[w]);
		int shown = 0;
		for (size_t k = 0; k < IW_ARRAY_LEN(stall_stack); k++) {
			/* (a block shows at least one column, for the scheme names) */
			if (!used[k] && !(k + 1 == IW_ARRAY_LEN(stall_stack) && !shown))
				continue;
			fprintf(f, ", 'stalls.dat' index %zu using %zu%s lc rgb '%s' ", w, k + 2, shown ? "" : ":xtic(1)",
				stall_stack[k].colour);
			if (w == 0)
				fprintf(f, "title '%s'", iw_stall_name[stall_stack[k].reason]);
			else
				fputs("notitle", f);
			shown++;
		}
	}
	fputc('\n', f);
	return close_file(r, f, "stalls", ".gp");
}

/* Power-trace choices from the spec kept in the file (<power-trace>). */
static size_t traces_from_spec(const struct iw_results *res, char (*tr)[2][256], size_t max)
{
	if (!res->sweep_xml)
		return 0;
	xmlDocPtr doc = xmlReadMemory(res->sweep_xml, (int)strlen(res->sweep_xml), "spec", NULL, XML_PARSE_NONET);
	size_t n = 0;
	if (!doc)
		return 0;
	for (xmlNodePtr c = xmlDocGetRootElement(doc)->children; c && n < max; c = c->next) {
		if (c->type != XML_ELEMENT_NODE || strcmp((const char *)c->name, "power-trace"))
			continue;
		xmlChar *w = xmlGetProp(c, (const xmlChar *)"workload"), *s = xmlGetProp(c, (const xmlChar *)"scheme");
		if (w && s) {
			snprintf(tr[n][0], 256, "%s", (const char *)w);
			snprintf(tr[n][1], 256, "%s", (const char *)s);
			n++;
		}
		xmlFree(w);
		xmlFree(s);
	}
	xmlFreeDoc(doc);
	return n;
}

static int fig_power(struct rep *r)
{
	char tr[16][2][256];
	size_t nt = 0;
	if (r->power_runs) {
		/* WORKLOAD:SCHEME pairs; the workload may hold ':' (knobs), the scheme never */
		char buf[4096];
		snprintf(buf, sizeof buf, "%s", r->power_runs);
		char *save = NULL;
		for (char *t = strtok_r(buf, ",", &save); t && nt < 16; t = strtok_r(NULL, ",", &save)) {
			char *c = strrchr(t, ':');
			if (!c)
				return iw_fail(r->e, IW_EUSAGE, "--power-runs %s: expected WORKLOAD:SCHEME", t);
			*c = 0;
			snprintf(tr[nt][0], 256, "%s", t);
			snprintf(tr[nt][1], 256, "%s", c + 1);
			nt++;
		}
	} else {
		nt = traces_from_spec(r->res, tr, 16);
	}
	/* Default: the first workload with every scheme, at the first configuration. */
	if (nt == 0)
		for (size_t s = 0; s < r->nsch && nt < 16 && r->nwl; s++, nt++) {
			snprintf(tr[nt][0], 256, "%s", r->workloads[0]);
			snprintf(tr[nt][1], 256, "%s", r->schemes[s]);
		}
	FILE *d = open_in(r, "power", ".dat");
	if (!d)
		return -r->e->code;
	fprintf(d, "# power over time at the first configuration; one block per run (gnuplot index)\n"
		   "# time_s (the end of each interval; a first row at 0 starts the first) power_w warp_ipc\n");
	size_t blocks = 0, have_power = 0;
	static char titles[16][300];
	size_t sch_of[16]; /* each block's scheme index: its colour */
	const struct iw_row *first = NULL; /* the first run plotted: its kernel starts are marked */
	for (size_t t = 0; t < nt; t++) {
		long row = -1;
		for (size_t w = 0; w < r->nwl && row < 0; w++)
			for (size_t s = 0; s < r->nsch && row < 0; s++)
				if (!strcmp(r->workloads[w], tr[t][0]) && !strcmp(r->schemes[s], tr[t][1]))
					row = r->ncfg ? at(r, 0, w, s) : -1;
		if (row < 0 && r->power_runs) {
			drop_file(r, d, "power", ".dat");
			return iw_fail(r->e, IW_EINPUT, "--power-runs %s:%s: expected a workload and scheme of the results file",
				       tr[t][0], tr[t][1]);
		}
		if (row < 0)
			continue;
		const struct iw_row *x = &r->res->rows[row];
		const struct iw_series *se = &x->run.series;
		if (!first)
			first = x;
		for (size_t s = 0; s < r->nsch; s++)
			if (!strcmp(r->schemes[s], x->scheme))
				sch_of[blocks] = s;
		snprintf(titles[blocks], sizeof titles[blocks], "%s, %s", wl_label_row(r, x->workload), x->scheme);
		fprintf(d, "# %s\n", titles[blocks]);
		double clk = x->run.cycles && x->seconds > 0 ? (double)x->run.cycles / x->seconds : 0;
		uint64_t acc = 0;
		/* A row ends its interval and fsteps draws each interval up to its
		 * row from the row before: a row at time 0 with the first
		 * interval's values, or the first interval would not be drawn. */
		for (size_t k = 0; k < se->n; k++) {
			if (k == 0) {
				fprintf(d, "0");
				num(d, x->power.nseries == se->n && x->power.series_w ? x->power.series_w[0] : NAN);
				num(d, se->cycles[0] ? (double)se->insts[0] / (double)se->cycles[0] : NAN);
				fputc('\n', d);
			}
			acc += se->cycles[k];
			fprintf(d, "%.9g", clk > 0 ? (double)acc / clk : NAN);
			num(d, x->power.nseries == se->n && x->power.series_w ? x->power.series_w[k] : NAN);
			num(d, se->cycles[k] ? (double)se->insts[k] / (double)se->cycles[k] : NAN);
			fputc('\n', d);
		}
		have_power += x->power.nseries == se->n && x->power.series_w && se->n;
		fprintf(d, "\n\n");
		blocks++;
	}
	if (close_file(r, d, "power", ".dat"))
		return -r->e->code;
	size_t marks = first && first->run.nkstats > 1 ? IW_MIN(first->run.nkstats, (size_t)IW_POWER_KERNEL_MARKS) : 0;
	FILE *f = begin_fig(r, "power", "Power over time", 900, 500,
			    marks ? "Power of the whole GPU over simulated time for the chosen runs (the spec's <power-trace> "
				    "elements, else the first workload with every scheme) at the first configuration; dashed: "
				    "warp-instructions per cycle on the right axis; black dash-dot lines: where each kernel of the first "
				    "run starts (kN: kernel N)."
				  : "Power of the whole GPU over simulated time for the chosen runs (the spec's <power-trace> "
				    "elements, else the first workload with every scheme) at the first configuration; dashed: "
				    "warp-instructions per cycle on the right axis.");
	if (!f)
		return -r->e->code;
	fprintf(f, "set title 'Power over time'\nset xlabel 'time (s)'\nset ylabel 'power (W)'\nset y2label 'IPC'\n"
		   "set ytics nomirror\nset y2tics\nset key outside right\nset grid\n");
	/* the first run's kernel starts (kernels run one after another) */
	double hz = marks && first->seconds > 0 ? (double)first->run.cycles / first->seconds : 0;
	for (size_t k = 1; hz > 0 && k < marks; k++) {
		double t = (double)first->run.kstats[k].start / hz;
		fprintf(f, "set arrow from first %.9g, graph 0 to first %.9g, graph 1 nohead front lw 1.5 dt 4 lc rgb "
			   "'black'\n",
			t, t);
		if (marks <= 20) /* (more would not be legible) */
			fprintf(f, "set label 'k%zu' at first %.9g, graph 1.03 center\n", k + 1, t);
	}
	if (!blocks) {
		fprintf(f, "set label 1 'no run matches the chosen power traces' at graph 0.5,0.5 center\n"
			   "set xrange [0:1]\nset yrange [0:1]\nplot NaN notitle\n");
	} else {
		if (!have_power)
			fprintf(f, "set label 1 'no power series in this results file (power model without series)' at "
				   "graph 0.5,0.9 center\nset yrange [0:1]\n");
		/* a run in its scheme's colour, as in every figure, and its IPC in
		 * the same; runs of one scheme (--power-runs) a colour each */
		int by_scheme = 1;
		for (size_t b = 0; b < blocks; b++)
			for (size_t b2 = 0; b2 < b; b2++)
				by_scheme &= sch_of[b] != sch_of[b2];
		fprintf(f, "plot ");
		for (size_t b = 0; b < blocks; b++) {
			size_t lc = (by_scheme ? sch_of[b] : b) + 1;
			fprintf(f, "%s'power.dat' index %zu using 1:2 with fsteps lw 2 lc %zu title ", b ? ", " : "", b, lc);
			gq(f, titles[b]);
			fprintf(f, ", '' index %zu using 1:3 axes x1y2 with fsteps dt 2 lc %zu title ", b, lc);
			fprintf(f, "'IPC ' . ");
			gq(f, titles[b]);
		}
		fputc('\n', f);
	}
	return close_file(r, f, "power", ".gp");
}

/* Histogram-like per-scheme sums: reorder distances, allocation periods. */
static void scheme_sum(const struct rep *r, size_t s, size_t off, size_t nb, double *out)
{
	memset(out, 0, nb * sizeof *out);
	for (size_t i = 0; i < r->res->n; i++) {
		const struct iw_row *x = &r->res->rows[i];
		if (strcmp(x->scheme, r->schemes[s]))
			continue;
		const uint64_t *h = (const uint64_t *)(const void *)((const char *)&x->run.cnt + off);
		for (size_t b = 0; b < nb; b++)
			out[b] += (double)h[b];
	}
}

static int fig_reorder(struct rep *r)
{
	FILE *d = open_in(r, "reorder", ".dat");
	if (!d)
		return -r->e->code;
	fprintf(d, "# share of reordered instructions by how many older ones they passed (all runs of each scheme)\n"
		   "# NaN: the scheme reordered nothing (in-order never does); gnuplot skips it\n"
		   "# distance");
	for (size_t s = 0; s < r->nsch; s++)
		fprintf(d, " %s", r->schemes[s]);
	fputc('\n', d);
	double (*h)[IW_REORDER_BINS] = iw_calloc(r->nsch ? r->nsch : 1, sizeof *h);
	double *tot = iw_calloc(r->nsch ? r->nsch : 1, sizeof *tot);
	size_t with = 0;
	if (!h || !tot) {
		drop_file(r, d, "reorder", ".dat");
		iw_free(h);
		iw_free(tot);
		return iw_fail(r->e, IW_ERUN, "out of memory");
	}
	for (size_t s = 0; s < r->nsch; s++) {
		scheme_sum(r, s, offsetof(struct iw_counters, reorder_dist), IW_REORDER_BINS, h[s]);
		for (size_t b = 0; b < IW_REORDER_BINS; b++)
			tot[s] += h[s][b];
		with += tot[s] > 0;
	}
	for (size_t b = 0; b < IW_REORDER_BINS; b++) {
		fprintf(d, "%zu", b + 1);
		for (size_t s = 0; s < r->nsch; s++)
			num(d, tot[s] > 0 ? h[s][b] / tot[s] : NAN);
		fputc('\n', d);
	}
	if (close_file(r, d, "reorder", ".dat")) {
		iw_free(h);
		iw_free(tot);
		return -r->e->code;
	}
	FILE *f = begin_fig(r, "reorder", "Reorder-distance histogram", 900, 500,
			    "How many older instructions of the same warp each out-of-order issue passed (share of all "
			    "reorders of the scheme; the last bin is 33 or more). Schemes that never reorder are absent.");
	if (f) {
		fprintf(f, "set title 'Reorder distance'\nset xlabel 'older instructions passed'\nset ylabel 'share of "
			   "reorders'\nset key outside right\nset grid\nset xrange [0.5:%d.5]\nset yrange [0:*]\n",
			IW_REORDER_BINS);
		if (!with)
			fprintf(f, "set label 1 'no scheme in this file issued out of order' at graph 0.5,0.5 center\n"
				   "set yrange [0:1]\nplot NaN notitle\n");
		else {
			fprintf(f, "plot ");
			size_t k = 0;
			for (size_t s = 0; s < r->nsch; s++) {
				if (!(tot[s] > 0))
					continue;
				fprintf(f, "%s'reorder.dat' using 1:%zu with linespoints lc %zu title ", k++ ? ", " : "", s + 2,
					s + 1);
				gq(f, r->schemes[s]);
			}
			fputc('\n', f);
		}
	}
	iw_free(h);
	iw_free(tot);
	return f ? close_file(r, f, "reorder", ".gp") : -r->e->code;
}

/* The CDFs of the thesis's section 6 (LOOG-Vortex): how long a collector
 * unit or an RRS entry stays allocated, and how long a scheduler stays
 * stalled for want of a free CU (a run of consecutive no_cu cycles). */
static const struct {
	size_t off; /* the histogram in struct iw_counters */
	const char *col, *title, *none, *xlabel;
} cdf_panels[] = {
	{offsetof(struct iw_counters, cu_alloc_period), "cu", "collector units", "no CU allocations recorded",
	 "cycles allocated"},
	{offsetof(struct iw_counters, rrs_alloc_period), "rrs", "RRS entries", "no RRS allocations recorded",
	 "cycles allocated"},
	{offsetof(struct iw_counters, no_cu_stall_len), "no_cu", "no-CU stalls", "no no-CU stalls recorded",
	 "consecutive cycles stalled"},
};
#define CDF_PANELS (sizeof cdf_panels / sizeof cdf_panels[0])

static int fig_alloc(struct rep *r)
{
	FILE *d = open_in(r, "alloc_cdf", ".dat");
	if (!d)
		return -r->e->code;
	fprintf(d, "# CDFs of allocation periods (cycles an entry stays allocated) and of no-CU stall runs (consecutive\n"
		   "# scheduler-cycles charged to no_cu), all runs of each scheme\n"
		   "# bin b covers [2^(b/4), 2^((b+1)/4)) cycles; x = upper edge\n"
		   "# NaN: the scheme has none (no RRS, or no no-CU stall); gnuplot skips it\n# cycles");
	for (size_t s = 0; s < r->nsch; s++)
		for (size_t p = 0; p < CDF_PANELS; p++)
			fprintf(d, " %s_%s", cdf_panels[p].col, r->schemes[s]);
	fputc('\n', d);
	size_t ns = r->nsch ? r->nsch : 1;
	double(*h)[CDF_PANELS][IW_HIST_BINS] = iw_calloc(ns, sizeof *h);
	if (!h) {
		drop_file(r, d, "alloc_cdf", ".dat");
		return iw_fail(r->e, IW_ERUN, "out of memory");
	}
	int has[CDF_PANELS] = {0};
	size_t last = 0; /* the x range ends where every curve has reached 1 */
	for (size_t s = 0; s < r->nsch; s++)
		for (size_t p = 0; p < CDF_PANELS; p++) {
			double *c = h[s][p];
			scheme_sum(r, s, cdf_panels[p].off, IW_HIST_BINS, c);
			for (size_t b = 1; b < IW_HIST_BINS; b++)
				c[b] += c[b - 1];
			has[p] |= c[IW_HIST_BINS - 1] > 0;
			for (size_t b = 0; b < IW_HIST_BINS; b++)
				if (c[IW_HIST_BINS - 1] > 0 && c[b] < c[IW_HIST_BINS - 1] && b + 1 > last)
					last = b + 1;
		}
	double xmax = pow(2.0, (double)(IW_MIN(last + 2, (size_t)IW_HIST_BINS)) / 4.0);
	for (size_t b = 0; b < IW_HIST_BINS; b++) {
		fprintf(d, "%.9g", pow(2.0, (double)(b + 1) / 4.0));
		for (size_t s = 0; s < r->nsch; s++)
			for (size_t p = 0; p < CDF_PANELS; p++) {
				double t = h[s][p][IW_HIST_BINS - 1];
				num(d, t > 0 ? h[s][p][b] / t : NAN);
			}
		fputc('\n', d);
	}
	int rc = close_file(r, d, "alloc_cdf", ".dat");
	FILE *f = rc ? NULL
		     : begin_fig(r, "alloc_cdf", "CU and RRS allocation-period and no-CU stall CDFs", 1500, 450,
				 "Cumulative share of collector-unit (left) and RRS-entry (middle) allocations that were held "
				 "at most x cycles, and of the runs of consecutive cycles a scheduler stalled for want of a "
				 "free collector unit (right, no_cu) that lasted at most x cycles; all runs of each scheme "
				 "(log-spaced bins, 4 per octave), as the LOOG-Vortex thesis draws them.");
	if (f) {
		fprintf(f, "set multiplot layout 1,%zu title 'Allocation periods and no-CU stalls'\nset logscale x 2\n"
			   "set ylabel 'cumulative share'\nset yrange [0:1.02]\nset grid\nset key bottom right\n",
			CDF_PANELS);
		for (size_t p = 0; p < CDF_PANELS; p++) {
			fprintf(f, "set title '%s'\nset xlabel '%s'\n", cdf_panels[p].title, cdf_panels[p].xlabel);
			if (!has[p]) {
				fprintf(f, "set label 1 '%s' at graph 0.5,0.5 center\nset xrange [1:2]\nplot NaN notitle\n"
					   "unset label 1\n",
					cdf_panels[p].none);
				continue;
			}
			fprintf(f, "set xrange [1:%.6g]\nplot ", xmax < 2 ? 2 : xmax);
			size_t k = 0;
			for (size_t s = 0; s < r->nsch; s++) {
				if (!(h[s][p][IW_HIST_BINS - 1] > 0))
					continue;
				fprintf(f, "%s'alloc_cdf.dat' using 1:%zu with steps lw 2 lc %zu title ", k++ ? ", " : "",
					2 + CDF_PANELS * s + p, s + 1);
				gq(f, r->schemes[s]);
			}
			fputc('\n', f);
		}
		fprintf(f, "unset multiplot\n");
		rc = close_file(r, f, "alloc_cdf", ".gp");
	} else if (!rc) {
		rc = -r->e->code;
	}
	iw_free(h);
	return rc;
}

/* -------------------------------------------------------------- tables */
static void tex_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("&%$#_{}", *s))
			fprintf(f, "\\%c", *s);
		else if (*s == '~')
			fputs("\\textasciitilde{}", f);
		else if (*s == '^')
			fputs("\\textasciicircum{}", f);
		else if (*s == '\\')
			fputs("\\textbackslash{}", f);
		else
			fputc(*s, f);
	}
}

static void tex_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.3f", v);
	else
		fprintf(f, "--");
}

/* Over replicates, a cell's confidence interval after its mean. */
static void tex_interval(const struct rep *r, FILE *f, const struct band *b)
{
	if (!r->replicates || !isfinite(b->lo))
		return;
	fprintf(f, " {\\scriptsize [");
	tex_num(f, b->lo);
	fprintf(f, ", ");
	tex_num(f, b->hi);
	fprintf(f, "]}");
}

/* The end of a tabular's column spec, a column per scheme, and the header
 * row: `lead` (the first columns' titles), then the schemes. */
static void tex_scheme_head(const struct rep *r, FILE *f, const char *lead)
{
	for (size_t s = 0; s < r->nsch; s++)
		fputc('r', f);
	fprintf(f, "}\n\\toprule\n%s", lead);
	for (size_t s = 0; s < r->nsch; s++) {
		fprintf(f, " & ");
		tex_escape(f, r->schemes[s]);
	}
	fprintf(f, " \\\\\n\\midrule\n");
}

/* The model's uncertainty of a table's value, the geometric mean G of
 * metric m over the runs of scheme s in configurations [c0, c1) and
 * workloads [w0, w1), nested as the tables nest them (over the workloads, of
 * the mean over the configurations).  Every run moves with the same
 * coefficients, so to first order G's change under coefficient k is
 * G * dlog_k, dlog_k the mean of the runs' d_k / x (iw_row.sens), nested
 * the same way.  model_dlog returns G and leaves dlog in r->dlog (NaN when
 * the file has no model uncertainty or m has none: speed-ups come from
 * timing); model_se gives G sqrt(sum_jk dlog_j dlog_k r_jk), or 0. */
static double model_dlog(const struct rep *r, size_t c0, size_t c1, size_t w0, size_t w1, size_t s, enum metric m)
{
	const struct iw_model_unc *u = &r->res->unc;
	int col = m == M_ENERGY ? IW_SE_ENERGY_REL : m == M_ADP ? IW_SE_ADP_REL : m == M_PDP ? IW_SE_PDP_REL
		: m == M_EDP ? IW_SE_EDP_REL : -1;
	if (!u->n || col < 0 || !r->dlog)
		return NAN;
	double *dl = r->dlog, *dw = r->dlog + u->n, lg = 0;
	size_t nw = 0;
	memset(dl, 0, u->n * sizeof *dl);
	for (size_t w = w0; w < w1; w++) {
		struct gm g = {0, 0};
		memset(dw, 0, u->n * sizeof *dw);
		for (size_t c = c0; c < c1; c++) {
			double x = metric(r, c, w, s, m);
			if (!(isfinite(x) && x > 0))
				continue; /* (as gm_add skips it) */
			gm_add(&g, x);
			const struct iw_row *row = &r->res->rows[at(r, c, w, s)];
			for (size_t k = 0; row->sens && row->nsens == u->n && k < u->n; k++)
				dw[k] += row->sens[k * IW_SE_COUNT + (size_t)col] / x;
		}
		if (!g.n)
			continue;
		lg += log(gm_get(&g));
		for (size_t k = 0; k < u->n; k++)
			dl[k] += dw[k] / (double)g.n;
		nw++;
	}
	if (!nw)
		return NAN;
	for (size_t k = 0; k < u->n; k++)
		dl[k] /= (double)nw;
	return exp(lg / (double)nw);
}

static double model_se(const struct rep *r, size_t c0, size_t c1, size_t w0, size_t w1, size_t s, enum metric m)
{
	double g = model_dlog(r, c0, c1, w0, w1, s, m);
	return isfinite(g) ? g * iw_model_unc_se(&r->res->unc, r->dlog, 1) : 0;
}

/* uncertainty_budget.csv (GUM's uncertainty budget): for each scheme and
 * metric, the geometric mean over every run and its standard error, and
 * per coefficient with an error its change of the mean and its share of
 * the variance, d_k (R d)_k / d'R d (the shares add up to 1; with
 * correlations one can be negative), largest first, leaving out the
 * coefficients that do not move it: which coefficient to calibrate better. */
static int write_budget(struct rep *r)
{
	const struct iw_model_unc *u = &r->res->unc;
	if (!u->n)
		return 0;
	FILE *f = open_in(r, "uncertainty_budget", ".csv");
	if (!f)
		return -r->e->code;
	double *d = iw_calloc(2 * u->n, sizeof *d), *share = d ? d + u->n : NULL;
	size_t *order = iw_calloc(u->n, sizeof *order);
	if (!d || !order) {
		iw_free(d);
		iw_free(order);
		drop_file(r, f, "uncertainty_budget", ".csv");
		return iw_fail(r->e, IW_ERUN, "out of memory");
	}
	fprintf(f, "scheme,metric,geomean,se,coefficient,std_error,change,share\n");
	static const enum metric ms[] = {M_ENERGY, M_ADP, M_PDP, M_EDP};
	static const char *const mname[] = {"energy_rel", "adp_rel", "pdp_rel", "edp_rel"};
	for (size_t s = 0; s < r->nsch; s++)
		for (size_t mi = 0; mi < IW_ARRAY_LEN(ms); mi++) {
			double g = model_dlog(r, 0, r->ncfg, 0, r->nwl, s, ms[mi]);
			double se = isfinite(g) ? g * iw_model_unc_se(u, r->dlog, 1) : 0;
			if (!(se > 0))
				continue;
			for (size_t k = 0; k < u->n; k++)
				d[k] = g * r->dlog[k];
			for (size_t k = 0; k < u->n; k++) {
				double rd = 0; /* (R d)_k */
				for (size_t j = 0; j < u->n; j++)
					rd += u->corr[k * u->n + j] * d[j];
				share[k] = d[k] * rd / (se * se);
				order[k] = k;
			}
			for (size_t i = 1; i < u->n; i++) /* largest share first, ties in file order */
				for (size_t j = i; j > 0 && fabs(share[order[j]]) > fabs(share[order[j - 1]]); j--) {
					size_t t = order[j];
					order[j] = order[j - 1];
					order[j - 1] = t;
				}
			for (size_t i = 0; i < u->n; i++) {
				size_t k = order[i];
				if (d[k] == 0)
					continue; /* (a coefficient this scheme's ratio does not use) */
				iw_csv_field(f, r->schemes[s]);
				fprintf(f, ",%s,%.9g,%.3g,", mname[mi], g, se);
				iw_csv_field(f, u->names[k]);
				fprintf(f, ",%.6g,%.3g,%.4f\n", u->std_error[k], d[k], share[k]);
			}
		}
	iw_free(d);
	iw_free(order);
	return close_file(r, f, "uncertainty_budget", ".csv");
}

/* A table cell's value's model error after it, to 2 significant digits. */
static void tex_se(FILE *f, double se)
{
	if (se > 0) {
		int d = 1 - (int)floor(log10(se));
		fprintf(f, " {\\scriptsize $\\pm$%.*f}", d < 3 ? 3 : d > 12 ? 12 : d, se);
	}
}

static int write_tables(struct rep *r)
{
	const struct iw_results *res = r->res;
	FILE *f = open_in(r, "tables", ".tex");
	if (!f)
		return -r->e->code;
	fprintf(f, "%% Generated by issuewatt report; needs \\usepackage{booktabs}.\n"
		   "%% Ratios against the in-order baseline, geometric mean over %zu configuration(s).\n\n",
		   r->ncfg);
	/* EDP, not PDP: a run's average power is its energy over its time, so
	 * PDP relative to in-order is the energy ratio again. */
	static const enum metric ms[] = {M_SPEEDUP, M_SM_SPEEDUP, M_ENERGY, M_ADP, M_EDP};
	for (size_t mi = 0; mi < IW_ARRAY_LEN(ms); mi++) {
		if (ms[mi] == M_SM_SPEEDUP && !has_sm_speedup(r))
			continue;
		int any_se = 0;
		for (size_t s = 0; s < r->nsch; s++)
			any_se |= model_se(r, 0, r->ncfg, 0, r->nwl, s, ms[mi]) > 0;
		fprintf(f, "\\begin{table}[t]\n\\centering\n\\caption{%s relative to in-order per workload and scheme "
			   "(geometric mean over %zu %s%s%s).}\n\\label{tab:%s}\n\\begin{tabular}{l",
			metric_name[ms[mi]], r->ncfg, r->replicates ? "seeds" : "configuration(s)",
			r->replicates ? "; in brackets the 95\\% confidence interval of the mean, Student's t on the logarithms" : "",
			any_se ? "; $\\pm$ one standard error from the calibrated cost model, of the mean where it is one: "
				 "the same coefficients move every run" : "",
			ms[mi] == M_SPEEDUP ? "speedup" : ms[mi] == M_SM_SPEEDUP ? "sm-speedup" : ms[mi] == M_ENERGY ? "energy"
			: ms[mi] == M_ADP ? "adp" : "edp");
		tex_scheme_head(r, f, "workload");
		for (size_t w = 0; w < r->nwl; w++) {
			tex_escape(f, r->wl_label[w]);
			for (size_t s = 0; s < r->nsch; s++) {
				struct band b = over_configs_band(r, w, s, ms[mi]);
				fprintf(f, " & ");
				tex_num(f, b.mid);
				tex_interval(r, f, &b);
				tex_se(f, model_se(r, 0, r->ncfg, w, w + 1, s, ms[mi]));
			}
			fprintf(f, " \\\\\n");
		}
		fprintf(f, "\\midrule\ngeo.\\ mean");
		for (size_t s = 0; s < r->nsch; s++) {
			struct gm g = {0, 0};
			for (size_t w = 0; w < r->nwl; w++)
				gm_add(&g, over_configs(r, w, s, ms[mi]));
			fprintf(f, " & ");
			tex_num(f, gm_get(&g));
			/* over replicates: the interval of the per-seed means over workloads */
			struct band b = over_configs_band(r, r->nwl, s, ms[mi]);
			tex_interval(r, f, &b);
			tex_se(f, model_se(r, 0, r->ncfg, 0, r->nwl, s, ms[mi]));
		}
		fprintf(f, " \\\\\n\\bottomrule\n\\end{tabular}\n\\end{table}\n\n");
	}
	/* Per kernel, for the workloads of several kernels (a trace): each
	 * scheme's speed-up on each kernel, the first IW_TEX_KERNELS in launch
	 * order (kernels.csv has them all). */
	for (size_t w = 0; w < r->nwl; w++) {
		const struct iw_run_result *ref = kernels_of(r, w);
		if (!ref)
			continue;
		size_t nk = IW_MIN(ref->nkstats, (size_t)IW_TEX_KERNELS);
		fprintf(f, "\\begin{table}[t]\n\\centering\n\\caption{Speed-up relative to in-order per kernel of ");
		tex_escape(f, r->wl_label[w]);
		fprintf(f, " (geometric mean over %zu %s; cycles: the in-order run's%s).}\n\\label{tab:kernels-%zu}\n"
			   "\\begin{tabular}{rlr",
			r->ncfg, r->replicates ? "seeds" : "configuration(s)",
			nk < ref->nkstats ? "; the first kernels, all in kernels.csv" : "", w + 1);
		tex_scheme_head(r, f, "kernel & name & cycles");
		for (size_t k = 0; k < nk; k++) {
			char name[33];
			snprintf(name, sizeof name, "%.32s", ref->kstats[k].name);
			fprintf(f, "%zu & ", k + 1);
			tex_escape(f, name);
			fprintf(f, " & %llu", (unsigned long long)ref->kstats[k].cycles);
			for (size_t sc = 0; sc < r->nsch; sc++) {
				fprintf(f, " & ");
				tex_num(f, kernel_speedup(r, w, sc, k));
			}
			fprintf(f, " \\\\\n");
		}
		fprintf(f, "\\bottomrule\n\\end{tabular}\n\\end{table}\n\n");
	}
	/* Right-sizing: the configurations with the lowest ADP per scheme. */
	if (res->nparams && r->nsch > 1) {
		for (size_t s = 1; s < r->nsch; s++) {
			size_t *order = iw_malloc(r->ncfg * sizeof *order);
			double *adp = iw_malloc(r->ncfg * sizeof *adp);
			if (!order || !adp) {
				iw_free(order);
				iw_free(adp);
				drop_file(r, f, "tables", ".tex");
				return iw_fail(r->e, IW_ERUN, "out of memory");
			}
			for (size_t c = 0; c < r->ncfg; c++) {
				order[c] = c;
				adp[c] = over_workloads(r, c, s, M_ADP);
			}
			/* selection of the best 10 (stable: ties keep the canonical order) */
			size_t top = IW_MIN(10, r->ncfg);
			for (size_t i = 0; i < top; i++)
				for (size_t j = i + 1; j < r->ncfg; j++) {
					double a = adp[order[j]], b = adp[order[i]];
					if ((isfinite(a) && !isfinite(b)) || (isfinite(a) && a < b)) {
						size_t t = order[i];
						order[i] = order[j];
						order[j] = t;
					}
				}
			fprintf(f, "\\begin{table}[t]\n\\centering\n\\caption{The %zu configurations of ", top);
			tex_escape(f, r->schemes[s]);
			fprintf(f, " with the lowest ADP relative to in-order (geometric mean over workloads%s).}\n"
				   "\\label{tab:best-adp-",
				model_se(r, 0, r->ncfg, 0, r->nwl, s, M_ADP) > 0
					? "; $\\pm$ one standard error from the calibrated cost model"
					: "");
			tex_escape(f, r->schemes[s]);
			fprintf(f, "}\n\\begin{tabular}{");
			for (size_t k = 0; k < res->nparams; k++)
				fputc('r', f);
			fprintf(f, "rrrr}\n\\toprule\n");
			for (size_t k = 0; k < res->nparams; k++) {
				tex_escape(f, res->param_names[k]);
				fprintf(f, " & ");
			}
			fprintf(f, "speed-up & energy & ADP & EDP \\\\\n\\midrule\n");
			for (size_t i = 0; i < top; i++) {
				size_t c = order[i];
				const double *p = res->rows[r->first_row[c]].params;
				for (size_t k = 0; k < res->nparams; k++) {
					char b[64];
					tex_escape(f, iw_param_text(res->param_names[k], p[k], "%g", b, sizeof b));
					fprintf(f, " & ");
				}
				tex_num(f, over_workloads(r, c, s, M_SPEEDUP));
				static const enum metric em[] = {M_ENERGY, M_ADP, M_EDP};
				for (size_t q = 0; q < IW_ARRAY_LEN(em); q++) {
					fprintf(f, " & ");
					tex_num(f, em[q] == M_ADP ? adp[c] : over_workloads(r, c, s, em[q]));
					tex_se(f, model_se(r, c, c + 1, 0, r->nwl, s, em[q]));
				}
				fprintf(f, " \\\\\n");
			}
			fprintf(f, "\\bottomrule\n\\end{tabular}\n\\end{table}\n\n");
			iw_free(order);
			iw_free(adp);
		}
	}
	return close_file(r, f, "tables", ".tex");
}

/* ------------------------------------------------------------ rendering */
/* Run gnuplot in the report folder with the terminal set on its command
 * line; returns the exit status (127 when it cannot be started). */
static int run_gnuplot(const char *prog, const char *dir, const char *setup, const char *script)
{
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		return 127;
	if (pid == 0) {
		if (chdir(dir) != 0)
			_exit(127);
		/* gnuplot's own messages (e.g. "empty y range") stay out of our output */
		if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
			_exit(127);
		if (script)
			execlp(prog, prog, "-e", setup, script, (char *)NULL);
		else
			execlp(prog, prog, setup, (char *)NULL);
		_exit(127);
	}
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 126;
}

static const char css[] =
	"body{font-family:sans-serif;max-width:72em;margin:2em auto;padding:0 1em;color:#222}"
	"figure{margin:2em 0}img{max-width:100%;border:1px solid #ddd}figcaption{font-size:.95em;color:#444}"
	"table{border-collapse:collapse}td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:right}"
	"td:first-child,th:first-child{text-align:left}code,pre{background:#f4f4f4}pre{padding:.6em}";

/* The inputs as the runs used them, from the file's provenance, so a reader
 * of the report can run them again: config.xml (--set applied), tech.xml
 * (every coefficient as priced; the file as given in files of earlier
 * versions) and a sweep's spec.xml. */
static int write_inputs(struct rep *r)
{
	const struct iw_results *res = r->res;
	const char *text[3] = {res->config_xml, res->tech_used_xml ? res->tech_used_xml : res->tech_xml, res->sweep_xml};
	static const char *const name[3] = {"config", "tech", "spec"};
	for (int k = 0; k < 3; k++) {
		if (!text[k] || !*text[k])
			continue;
		FILE *f = open_in(r, name[k], ".xml");
		if (!f)
			return -r->e->code;
		fputs(text[k], f);
		if (close_file(r, f, name[k], ".xml"))
			return -r->e->code;
	}
	return 0;
}

static int write_html(struct rep *r, int rendered, const char *why)
{
	const struct iw_results *res = r->res;
	FILE *f = open_in(r, "index", ".html");
	if (!f)
		return -r->e->code;
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>issuewatt report"
		   "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>issuewatt report</h1>\n",
		css);
	fprintf(f, "<p>%zu run(s): %zu workload(s) x %zu scheme(s) x %zu configuration(s); configuration <b>", res->n,
		r->nwl, r->nsch, r->ncfg);
	iw_xml_text(f, res->config_name);
	fprintf(f, "</b>, technology <b>");
	iw_xml_text(f, res->tech_name);
	fprintf(f, "</b>.</p>\n<p>Command: <code>");
	iw_xml_text(f, res->command_line);
	fprintf(f, "</code></p>\n");
	if (res->nparams) {
		fprintf(f, "<p>Swept parameters:");
		for (size_t k = 0; k < res->nparams; k++) {
			fprintf(f, "%s <code>", k ? "," : "");
			iw_xml_text(f, res->param_names[k]);
			fprintf(f, "</code>");
		}
		fprintf(f, ".</p>\n");
	}
	fprintf(f, "<p>Data: <a href=\"summary.csv\">summary.csv</a> (one row per run, the swept parameters as columns), "
		   "<a href=\"kernels.csv\">kernels.csv</a> (one row per run and kernel: cycles, warp-instructions, "
		   "speed-up against the in-order run's same kernel), "
		   "<a href=\"tables.tex\">tables.tex</a> (LaTeX, booktabs)%s. Every figure has its gnuplot script "
		   "(<code>.gp</code>) and data (<code>.dat</code>) beside it; <code>sh render.sh</code> re-renders "
		   "them all.</p>\n",
		res->unc.n ? ", <a href=\"uncertainty_budget.csv\">uncertainty_budget.csv</a> (each fitted coefficient's "
			     "share of the model's error of each scheme's mean energy, ADP, PDP and EDP)"
			   : "");
	if (res->config_xml && *res->config_xml) {
		/* (what write_inputs wrote) */
		fprintf(f, "<p>Inputs as run: <a href=\"config.xml\">config.xml</a> (the configuration, --set applied%s)",
			res->sweep_xml ? "; each point changes its swept parameters" : "");
		if ((res->tech_used_xml && *res->tech_used_xml) || (res->tech_xml && *res->tech_xml))
			fprintf(f, ", <a href=\"tech.xml\">tech.xml</a> (%s)",
				res->tech_used_xml ? "the technology, every coefficient as priced"
						   : "the technology file as given, without --set");
		if (res->sweep_xml)
			fprintf(f, ", <a href=\"spec.xml\">spec.xml</a> (the sweep; its paths are the original run's)");
		fprintf(f, ". <code>issuewatt run --config config.xml --tech tech.xml</code> with a run's workload and "
			   "scheme%s gives its numbers again.</p>\n",
			res->sweep_xml ? " (and its swept parameters as <code>--set</code>)" : "");
	}
	if (!rendered) {
		fprintf(f, "<p class=\"note\"><b>The figures were not rendered</b> (");
		iw_xml_text(f, why);
		fprintf(f, "). Install gnuplot (Debian: <code>apt-get install gnuplot-nox</code>) and run, in this "
			   "folder:</p>\n<pre>sh render.sh</pre>\n<p>or one figure at a time:</p>\n<pre>gnuplot -e \"set "
			   "terminal svg size 900,500; set output 'speedup.svg'\" speedup.gp</pre>\n");
	}
	if (res->nparams < 2)
		fprintf(f, "<p>No heat maps: they need at least two swept parameters (e.g. sm.max_warps and "
			   "sm.warp_size).</p>\n");
	fprintf(f, "<h2>Contents</h2>\n<ul>\n");
	for (size_t i = 0; i < r->nfigs; i++) {
		fprintf(f, "<li><a href=\"#%s\">", r->figs[i].name);
		iw_xml_text(f, r->figs[i].title);
		fprintf(f, "</a></li>\n");
	}
	fprintf(f, "</ul>\n");
	for (size_t i = 0; i < r->nfigs; i++) {
		const struct fig *g = &r->figs[i];
		fprintf(f, "<h2 id=\"%s\">", g->name);
		iw_xml_text(f, g->title);
		fprintf(f, "</h2>\n<figure>\n<img src=\"%s.svg\" alt=\"", g->name);
		iw_xml_text(f, g->title);
		fprintf(f, "\" width=\"%d\">\n<figcaption>", g->w);
		iw_xml_text(f, g->caption);
		fprintf(f, " Files: <a href=\"%s.svg\">SVG</a>, <a href=\"%s.png\">PNG</a>, <a href=\"%s.gp\">script</a>, "
			   "<a href=\"%s.dat\">data</a>.</figcaption>\n</figure>\n",
			g->name, g->name, g->name, g->name);
	}
	fprintf(f, "</body>\n</html>\n");
	return close_file(r, f, "index", ".html");
}

static int write_render_sh(struct rep *r)
{
	FILE *f = open_in(r, "render", ".sh");
	if (!f)
		return -r->e->code;
	fprintf(f, "#!/bin/sh\n# Render every figure of this report with gnuplot (SVG and PNG).\nset -e\ncd \"$(dirname "
		   "\"$0\")\"\nGNUPLOT=${GNUPLOT:-gnuplot}\n");
	for (size_t i = 0; i < r->nfigs; i++) {
		const struct fig *g = &r->figs[i];
		fprintf(f, "\"$GNUPLOT\" -e \"set terminal svg size %d,%d dynamic enhanced font 'Sans,11'; set output "
			   "'%s.svg'\" %s.gp\n",
			g->w, g->h, g->name, g->name);
		fprintf(f, "\"$GNUPLOT\" -e \"set terminal pngcairo size %d,%d enhanced font 'Sans,10'; set output "
			   "'%s.png'\" %s.gp\n",
			g->w, g->h, g->name, g->name);
	}
	return close_file(r, f, "render", ".sh");
}

/* Figure g as SVG or PNG (in the staging folder, as every file). */
static int render_fig(struct rep *r, const char *gp, const struct fig *g, int png)
{
	char setup[320], script[80];
	snprintf(script, sizeof script, "%s.gp", g->name);
	if (png)
		snprintf(setup, sizeof setup,
			 "set terminal pngcairo size %d,%d enhanced font 'Sans,10'; set output '%s.png'", g->w, g->h,
			 g->name);
	else
		snprintf(setup, sizeof setup,
			 "set terminal svg size %d,%d dynamic enhanced font 'Sans,11'; set output '%s.svg'", g->w, g->h,
			 g->name);
	int st = run_gnuplot(gp, r->dir, setup, script);
	return st ? iw_fail(r->e, IW_ERUN, "%s/%s: gnuplot failed (exit %d); run it by hand to see why", r->out, script, st)
		  : 0;
}

static void rep_free(struct rep *r)
{
	iw_free(r->schemes);
	iw_free(r->workloads);
	iw_free(r->wl_label);
	iw_free(r->cfg_of);
	iw_free(r->first_row);
	iw_free(r->idx);
	iw_free(r->dlog);
}

/* mkdir -p: 0 and *top = the length of the outermost folder it made (0 if
 * dir was there already), or -1 with errno. */
static int make_dirs(const char *dir, size_t *top)
{
	char p[4096];
	size_t n = strlen(dir);
	*top = 0;
	if (n >= sizeof p) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(p, dir, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if ((p[i] != '/' && p[i] != 0) || p[i - 1] == '/')
			continue;
		char c = p[i];
		p[i] = 0;
		int ok = mkdir(p, 0777) == 0;
		if (!ok && errno != EEXIST)
			return -1;
		if (ok && !*top)
			*top = i;
		p[i] = c;
	}
	return 0;
}

/* Remove the folders make_dirs made (those still empty), innermost first. */
static void remove_made(const char *dir, size_t top)
{
	char p[4096];
	snprintf(p, sizeof p, "%s", dir);
	while (top) {
		size_t n = strlen(p);
		while (n > 1 && p[n - 1] == '/')
			p[--n] = 0;
		char *sl = strrchr(p, '/');
		if (n < top || rmdir(p) != 0 || !sl)
			break;
		*sl = 0;
	}
}

int iw_report_write(const struct iw_results *res, const char *dir, struct iw_report_opts *o, struct iw_err *e)
{
	struct rep r;
	memset(&r, 0, sizeof r);
	r.res = res;
	r.out = dir;
	r.e = e;
	r.power_runs = o->power_runs;
	if (res->n == 0)
		return iw_fail(e, IW_EINPUT, "report: the results file holds no run");
	size_t top; /* the folders it made, to remove when it fails */
	if (make_dirs(dir, &top) != 0)
		return iw_fail(e, IW_ERUN, "%s: cannot create the report folder (%s)", dir, strerror(errno));
	int made = top != 0;
	char stage[4096], host[128];
	host_tag(host, sizeof host);
	if (!made)
		drop_orphans(dir, host, e);
	if ((size_t)snprintf(stage, sizeof stage, "%s/.report.%s.%ld.XXXXXX", dir, host, (long)getpid()) >= sizeof stage ||
	    !mkdtemp(stage)) {
		int err = errno;
		remove_made(dir, top);
		return iw_fail(e, IW_ERUN, "%s: cannot write in the report folder (%s)", dir, strerror(err));
	}
	r.dir = stage;
	int rc = index_rows(&r);
	if (rc == 0 && res->unc.n && !(r.dlog = iw_calloc(2 * res->unc.n, sizeof *r.dlog)))
		rc = iw_fail(e, IW_ERUN, "out of memory");
	if (rc == 0 && (r.nsch == 0 || strcmp(r.schemes[0], "inorder")))
		rc = iw_fail(e, IW_EINPUT, "report: expected in-order baseline runs in the results file, found none");
	if (rc == 0)
		rc = fig_speedup(&r, M_SPEEDUP);
	if (rc == 0)
		rc = fig_speedup(&r, M_SM_SPEEDUP);
	if (rc == 0)
		rc = fig_kernels(&r);
	if (rc == 0)
		rc = figs_heat(&r);
	if (rc == 0)
		rc = fig_pareto(&r);
	if (rc == 0)
		rc = fig_energy(&r);
	if (rc == 0)
		rc = fig_stalls(&r);
	if (rc == 0)
		rc = fig_power(&r);
	if (rc == 0)
		rc = fig_reorder(&r);
	if (rc == 0)
		rc = fig_alloc(&r);
	if (rc == 0)
		rc = write_tables(&r);
	if (rc == 0)
		rc = write_budget(&r);
	if (rc == 0) {
		FILE *f = open_in(&r, "summary", ".csv");
		if (!f)
			rc = -e->code;
		else {
			iw_summary_csv(f, res->rows, res->n, (const char *const *)res->param_names, res->nparams, 1);
			rc = close_file(&r, f, "summary", ".csv");
		}
	}
	if (rc == 0) {
		FILE *f = open_in(&r, "kernels", ".csv");
		if (!f)
			rc = -e->code;
		else {
			iw_kernels_csv(f, res->rows, res->n, res->unc.n ? res->unc.corr : NULL);
			rc = close_file(&r, f, "kernels", ".csv");
		}
	}
	if (rc == 0)
		rc = write_inputs(&r);
	if (rc == 0)
		rc = write_render_sh(&r);
	int rendered = 0;
	const char *why = "rendering was turned off (--no-render)";
	char failed[600];
	if (rc == 0 && o->render) {
		const char *gp = o->gnuplot && *o->gnuplot ? o->gnuplot : "gnuplot";
		int st = run_gnuplot(gp, stage, "--version", NULL);
		if (st == 127) { /* (what run_gnuplot returns when it cannot start it) */
			why = "gnuplot was not found on this machine";
			if (!o->quiet)
				fprintf(stderr, "issuewatt: report: %s was not found; wrote the data and scripts, render them "
						"with 'sh %s/render.sh'\n",
					gp, dir);
		} else if (st != 0) {
			/* there but broken (a wrong IW_GNUPLOT, a missing library): a
			 * warning even with -q, since the user asked for the figures */
			snprintf(failed, sizeof failed, "'%.500s --version' failed with exit status %d", gp, st);
			why = failed;
			fprintf(stderr, "issuewatt: warning: report: %s; wrote the data and scripts without the figures, "
					"render them with 'sh %s/render.sh' once gnuplot works\n",
				failed, dir);
		} else {
			rendered = 1;
			for (size_t i = 0; i < r.nfigs && rc == 0; i++)
				for (int png = 0; png < 2 && rc == 0; png++)
					rc = render_fig(&r, gp, &r.figs[i], png);
		}
	}
	if (rc == 0)
		rc = write_html(&r, rendered, why);
	int urc = unstage(stage, dir, rc == 0, e);
	if (rc == 0)
		rc = urc;
	if (rc)
		remove_made(dir, top); /* (only if empty: folders it made and left nothing in) */
	rep_free(&r);
	return rc;
}

int iw_report_json(FILE *f, const struct iw_results *res, struct iw_err *e)
{
	struct rep r;
	memset(&r, 0, sizeof r);
	r.res = res;
	r.e = e;
	int rc = index_rows(&r);
	if (rc == 0 && res->unc.n && !(r.dlog = iw_calloc(2 * res->unc.n, sizeof *r.dlog)))
		rc = iw_fail(e, IW_ERUN, "out of memory");
	if (rc == 0) {
		/* the means of run's own JSON ("geomeans"), per configuration */
		static const enum metric ms[] = {M_SPEEDUP, M_ENERGY, M_ADP, M_EDP};
		static const char *const keys[] = {"speedup", "energy_rel", "adp_rel", "edp_rel"};
		iw_runs_json(f, res->rows, res->n, (const char *const *)res->param_names, res->nparams);
		fputs(", \"geomeans\": [", f);
		size_t k = 0;
		for (size_t c = 0; c < r.ncfg; c++)
			for (size_t sc = 0; sc < r.nsch; sc++) {
				size_t nw = 0;
				for (size_t w = 0; w < r.nwl; w++)
					nw += at(&r, c, w, sc) >= 0;
				if (!nw)
					continue;
				fputs(k++ ? ",\n  {\"scheme\": " : "\n  {\"scheme\": ", f);
				iw_json_str(f, r.schemes[sc]);
				if (res->nparams) {
					const struct iw_row *x = &res->rows[r.first_row[c]];
					fputs(", \"params\": {", f);
					for (size_t p = 0; p < res->nparams; p++) {
						fputs(p ? ", " : "", f);
						iw_json_str(f, res->param_names[p]);
						fputs(": ", f);
						iw_json_param(f, res->param_names[p], p < x->nparams ? x->params[p] : NAN);
					}
					fputc('}', f);
				}
				fprintf(f, ", \"workloads\": %zu", nw);
				for (size_t m = 0; m < IW_ARRAY_LEN(ms); m++) {
					fprintf(f, ", \"%s\": ", keys[m]);
					iw_json_num(f, over_workloads(&r, c, sc, ms[m]));
				}
				for (size_t m = 0; m < IW_ARRAY_LEN(ms); m++) {
					fprintf(f, ", \"%s_se\": ", keys[m]);
					iw_json_num(f, model_se(&r, c, c + 1, 0, r.nwl, sc, ms[m]));
				}
				fputc('}', f);
			}
		fputs(k ? "\n]}\n" : "]}\n", f);
	}
	rep_free(&r);
	return rc;
}
