/*
 * reports/sweep_run.c -- running a sweep: worker threads on this machine
 * (the simulator is reentrant), or an Open MPI master/worker queue when the
 * program was built with MPI=1 and started by mpirun; shards for job arrays;
 * resume from an existing results file; progress on stderr; merging files.
 *
 * Whatever the parallelism, each unit (configuration x workload, all schemes)
 * is computed by the same deterministic code and stored at its canonical
 * index, and the file is written in that order: the numbers are the same bit
 * for bit however the sweep was run.
 */
#include "reports.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef IW_MPI
#include <mpi.h>
#endif

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------------ state */
struct state {
	const struct iw_sweep *s;
	/* Finished rows are packed into a spool file (unlinked, next to the
	 * output) and only their place is kept, so memory does not grow with the
	 * number of points; the writer reads them back one at a time. */
	int spool;
	uint64_t spool_end;
	uint64_t *roff;             /* per row id: offset in the spool */
	size_t *rlen;               /* per row id: packed length */
	unsigned char *done;        /* per unit: 0 no, 1 yes */
	size_t *todo, ntodo, next;  /* units still to run, in canonical order */
	size_t total, ndone, nrun;  /* units of this shard, finished, finished in this process */
	size_t limit;               /* stop after this many units run here (0 = no limit) */
	int failed;
	struct iw_err err;
	volatile int *stop;
	struct iw_base_cache *base; /* baseline runs shared by points (may be NULL) */
	struct deal *deal;          /* deals units by baseline family (NULL: todo order) */
	size_t mpi_shared;          /* units whose rank had their baseline already */
	int mpi_abandoned;          /* rank 0 gave up with workers still holding points */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int active;
	/* progress */
	int progress, tty;
	double t0, last;
	size_t ndone0;
};

static void progress(struct state *st, int final)
{
	if (!st->progress)
		return;
	double t = now_s();
	if (!final && t - st->last < (st->tty ? 0.2 : 5.0))
		return;
	st->last = t;
	size_t runs = st->ndone - st->ndone0, left = st->total - st->ndone;
	double el = t - st->t0, eta = runs ? el / (double)runs * (double)left : NAN;
	char etas[32] = "?";
	if (isfinite(eta))
		snprintf(etas, sizeof etas, "%d:%02d:%02d", (int)(eta / 3600), (int)fmod(eta / 60, 60), (int)fmod(eta, 60));
	unsigned pct = st->total ? (unsigned)(100.0 * (double)st->ndone / (double)st->total) : 100;
	if (st->tty) {
		char bar[31];
		size_t fill = st->total ? 30 * st->ndone / st->total : 30;
		for (size_t i = 0; i < 30; i++)
			bar[i] = i < fill ? '#' : '.';
		bar[30] = 0;
		fprintf(stderr, "\r[%s] %3u%% %zu/%zu points  %.0fs elapsed  ETA %s   %s", bar, pct, st->ndone, st->total,
			el, etas, final ? "\n" : "");
	} else {
		fprintf(stderr, "issuewatt: sweep %zu/%zu points (%u%%), %.0f s elapsed, ETA %s\n", st->ndone, st->total, pct,
			el, etas);
	}
	fflush(stderr);
}

/* Append bytes to the spool at its end (pwrite: no shared file position). */
static int spool_put(struct state *st, const unsigned char *b, size_t len)
{
	size_t done = 0;
	while (done < len) {
		ssize_t w = pwrite(st->spool, b + done, len - done, (off_t)(st->spool_end + done));
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		done += (size_t)w;
	}
	st->spool_end += len;
	return 0;
}

/* Spool one unit's rows (packed already when `packed`, as MPI sends them);
 * called with the lock held.  The rows are freed by the caller. */
static void store_packed(struct state *st, size_t unit, const unsigned char *msg, size_t len)
{
	size_t ns = st->s->base.nschemes, off = 0;
	for (size_t si = 0; si < ns; si++) {
		struct iw_row tmp;
		size_t used = 0;
		struct iw_err e = {0};
		/* lengths of each row: unpack to measure (and to check the message) */
		if (iw_row_unpack(&tmp, msg + off, len - off, &used, &e)) {
			if (!st->failed)
				st->err = e;
			st->failed = 1;
			return;
		}
		iw_results_row_free(&tmp);
		st->roff[unit * ns + si] = st->spool_end + off;
		st->rlen[unit * ns + si] = used;
		off += used;
	}
	if (spool_put(st, msg, off)) {
		if (!st->failed)
			iw_fail(&st->err, IW_ERUN, "cannot write the sweep's spool file (disk full?)");
		st->failed = 1;
		return;
	}
	st->done[unit] = 1;
	st->ndone++;
	st->nrun++;
}

static void store(struct state *st, size_t unit, const struct iw_row *rows)
{
	size_t ns = st->s->base.nschemes, len = 0;
	unsigned char *msg = NULL;
	struct iw_err e = {0};
	for (size_t si = 0; si < ns; si++) {
		unsigned char *b;
		size_t bl;
		if (iw_row_pack(&rows[si], &b, &bl, &e)) {
			iw_free(msg);
			if (!st->failed)
				st->err = e;
			st->failed = 1;
			return;
		}
		unsigned char *nm = iw_realloc(msg, len + bl);
		if (!nm) {
			iw_free(b);
			iw_free(msg);
			if (!st->failed)
				iw_fail(&st->err, IW_ERUN, "out of memory");
			st->failed = 1;
			return;
		}
		msg = nm;
		memcpy(msg + len, b, bl);
		len += bl;
		iw_free(b);
	}
	store_packed(st, unit, msg, len);
	iw_free(msg);
}

static int should_stop(struct state *st)
{
	return st->failed || (st->stop && *st->stop) || (st->limit && st->nrun >= st->limit);
}

/* Units are dealt one at a time to worker threads or MPI ranks (dynamic
 * balance: points differ a lot in cost).  A family's units share one
 * in-order baseline (sweep_base.c), kept in a cache (the threads', or each
 * rank's own): so a worker stays with the family it started while that has
 * units left, a worker without one claims a family no worker has (so two
 * never simulate the same baseline at once), and only when every family is
 * claimed does it help with the earliest one left (a cache hit once that
 * baseline is in; if not, simulated again: the same numbers, some time lost). */
struct deal {
	const struct iw_sweep *s;
	size_t *head;       /* per family: its first unit not dealt (todo index), SIZE_MAX none */
	size_t *next;       /* per todo index: the next of its family */
	unsigned char *claimed, *taken;
	size_t *fams, nfams, cursor; /* families by first appearance, the first maybe unclaimed */
	size_t first;       /* todo index: every one before it is dealt */
	size_t *last;       /* per worker: its family (SIZE_MAX none) */
};

static void deal_free(struct deal *d)
{
	iw_free(d->head);
	iw_free(d->next);
	iw_free(d->claimed);
	iw_free(d->taken);
	iw_free(d->fams);
	iw_free(d->last);
}

static int deal_init(struct deal *d, const struct state *st, int nworkers)
{
	const struct iw_sweep *s = st->s;
	size_t nf = s->nunits ? s->nunits : 1, nt = st->ntodo ? st->ntodo : 1;
	memset(d, 0, sizeof *d);
	d->s = s;
	d->head = iw_malloc(nf * sizeof *d->head);
	d->next = iw_malloc(nt * sizeof *d->next);
	d->claimed = iw_calloc(nf, 1);
	d->taken = iw_calloc(nt, 1);
	d->fams = iw_malloc(nf * sizeof *d->fams);
	d->last = iw_malloc((size_t)nworkers * sizeof *d->last);
	size_t *tail = iw_malloc(nf * sizeof *tail);
	if (!d->head || !d->next || !d->claimed || !d->taken || !d->fams || !d->last || !tail) {
		iw_free(tail);
		deal_free(d);
		return -1;
	}
	for (size_t f = 0; f < nf; f++)
		d->head[f] = SIZE_MAX;
	for (int r = 0; r < nworkers; r++)
		d->last[r] = SIZE_MAX;
	for (size_t i = 0; i < st->ntodo; i++) { /* each family's units in todo order */
		size_t f = iw_sweep_family(s, st->todo[i]);
		d->next[i] = SIZE_MAX;
		if (d->head[f] == SIZE_MAX) {
			d->head[f] = i;
			d->fams[d->nfams++] = f;
		} else {
			d->next[tail[f]] = i;
		}
		tail[f] = i;
	}
	iw_free(tail);
	return 0;
}

/* The todo index of worker r's next unit (there is one left). */
static size_t deal_next(struct deal *d, const struct state *st, int r)
{
	size_t f = d->last[r];
	if (f == SIZE_MAX || d->head[f] == SIZE_MAX) {
		while (d->cursor < d->nfams && (d->claimed[d->fams[d->cursor]] || d->head[d->fams[d->cursor]] == SIZE_MAX))
			d->cursor++;
		if (d->cursor < d->nfams) {
			f = d->fams[d->cursor];
		} else {
			while (d->taken[d->first])
				d->first++;
			f = iw_sweep_family(d->s, st->todo[d->first]);
		}
	}
	d->claimed[f] = 1;
	d->last[r] = f;
	size_t i = d->head[f];
	d->head[f] = d->next[i];
	d->taken[i] = 1;
	return i;
}

/* The next unit for worker `who` (with the lock held; st->next < st->ntodo):
 * dealt by family, or in todo order if the dealer could not be set up. */
static size_t pick(struct state *st, int who)
{
	size_t i = st->deal ? deal_next(st->deal, st, who) : st->next;
	st->next++;
	return st->todo[i];
}

/* --------------------------------------------------------------- threads */
struct worker_arg {
	struct state *st;
	int id;
};

static void *worker(void *arg)
{
	struct state *st = ((struct worker_arg *)arg)->st;
	int id = ((struct worker_arg *)arg)->id;
	size_t ns = st->s->base.nschemes;
	struct iw_row *tmp = iw_calloc(ns, sizeof *tmp);
	pthread_mutex_lock(&st->mu);
	if (!tmp && !st->failed) {
		st->failed = 1;
		iw_fail(&st->err, IW_ERUN, "out of memory");
	}
	/* with a limit, never hand out more units than it */
	while (tmp && !should_stop(st) && st->next < st->ntodo && (!st->limit || st->next < st->limit)) {
		size_t u = pick(st, id);
		pthread_mutex_unlock(&st->mu);
		struct iw_err e = {0};
		int rc = iw_sweep_unit(st->s, u, tmp, st->base, &e);
		pthread_mutex_lock(&st->mu);
		if (rc) {
			if (!st->failed)
				st->err = e;
			st->failed = 1;
		} else {
			store(st, u, tmp);
			for (size_t si = 0; si < ns; si++)
				iw_row_free(&tmp[si]);
		}
		pthread_cond_broadcast(&st->cv);
	}
	st->active--;
	pthread_cond_broadcast(&st->cv);
	pthread_mutex_unlock(&st->mu);
	iw_free(tmp);
	return NULL;
}

static int run_threads(struct state *st, int jobs)
{
	if (jobs <= 0)
		jobs = iw_cores();
	if ((size_t)jobs > st->ntodo)
		jobs = st->ntodo ? (int)st->ntodo : 1;
	pthread_t *th = iw_calloc((size_t)jobs, sizeof *th);
	struct worker_arg *wa = iw_calloc((size_t)jobs, sizeof *wa);
	if (!th || !wa) {
		iw_free(th);
		iw_free(wa);
		return iw_fail(&st->err, IW_ERUN, "out of memory");
	}
	struct deal d;
	st->deal = deal_init(&d, st, jobs) ? NULL : &d; /* NULL: todo order, the same results */
	int started = 0;
	pthread_mutex_lock(&st->mu);
	for (int i = 0; i < jobs; i++) {
		st->active++;
		wa[i].st = st;
		wa[i].id = i;
		if (pthread_create(&th[i], NULL, worker, &wa[i])) {
			st->active--;
			break;
		}
		started++;
	}
	if (!started) {
		pthread_mutex_unlock(&st->mu);
		iw_free(th);
		iw_free(wa);
		if (st->deal)
			deal_free(st->deal);
		st->deal = NULL;
		return iw_fail(&st->err, IW_ERUN, "cannot start worker threads");
	}
	int announced = 0;
	while (st->active > 0) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 200000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&st->cv, &st->mu, &ts);
		progress(st, 0);
		if (st->stop && *st->stop && !announced && st->active > 0) {
			announced = 1;
			if (st->progress)
				fprintf(stderr, "%sissuewatt: stopping: finishing the %d running point(s)\n", st->tty ? "\n" : "",
					st->active);
		}
	}
	pthread_mutex_unlock(&st->mu);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	iw_free(th);
	iw_free(wa);
	if (st->deal)
		deal_free(st->deal);
	st->deal = NULL;
	return 0;
}

/* ------------------------------------------------------------------- MPI */
#ifdef IW_MPI
enum { TAG_WORK = 1, TAG_STOP = 2, TAG_ROWS = 3, TAG_ERR = 4 };

static int mpi_ranks(int *rank)
{
	int init = 0, n = 1;
	*rank = 0;
	MPI_Initialized(&init);
	if (!init)
		return 1;
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	MPI_Comm_rank(MPI_COMM_WORLD, rank);
	return n;
}

static void mpi_worker(const struct iw_sweep *s)
{
	size_t ns = s->base.nschemes;
	struct iw_row *rows = iw_calloc(ns, sizeof *rows);
	/* a rank's own baselines (NULL if out of memory: each unit then runs its own) */
	struct iw_base_cache *bc = iw_base_cache_new(2 * s->base.nworkloads + 64);
	for (;;) {
		unsigned long long u;
		MPI_Status stt;
		MPI_Recv(&u, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &stt);
		if (stt.MPI_TAG == TAG_STOP)
			break;
		struct iw_err e = {0};
		uint64_t h0 = 0, h1 = 0, miss;
		if (bc)
			iw_base_cache_stats(bc, &h0, &miss);
		int rc = rows ? iw_sweep_unit(s, (size_t)u, rows, bc, &e) : iw_fail(&e, IW_ERUN, "out of memory");
		if (bc)
			iw_base_cache_stats(bc, &h1, &miss);
		unsigned char *msg = NULL;
		size_t len = 0;
		for (size_t i = 0; rc == 0 && i < ns; i++) {
			unsigned char *b;
			size_t bl;
			rc = iw_row_pack(&rows[i], &b, &bl, &e);
			if (rc == 0) {
				unsigned char *nm = iw_realloc(msg, len + bl);
				if (!nm) {
					iw_free(b);
					rc = iw_fail(&e, IW_ERUN, "out of memory");
					break;
				}
				msg = nm;
				memcpy(msg + len, b, bl);
				len += bl;
				iw_free(b);
			}
		}
		if (rc == 0)
			for (size_t i = 0; i < ns; i++)
				iw_row_free(&rows[i]);
		if (rc == 0) { /* one byte more: 1 if the baseline came from this rank's cache */
			unsigned char *nm = iw_realloc(msg, len + 1);
			if (nm) {
				msg = nm;
				msg[len++] = (unsigned char)(h1 != h0);
			} else {
				rc = iw_fail(&e, IW_ERUN, "out of memory");
			}
		}
		if (rc) {
			/* the error's class first (invalid input is exit 3 and leaves no
			 * output, a failed run keeps what finished), then its text */
			char em[sizeof e.msg + 1];
			em[0] = (char)(e.code ? e.code : IW_ERUN);
			size_t ml = strlen(e.msg);
			memcpy(em + 1, e.msg, ml + 1);
			MPI_Send(em, (int)ml + 2, MPI_CHAR, 0, TAG_ERR, MPI_COMM_WORLD);
		} else
			MPI_Send(msg, (int)len, MPI_BYTE, 0, TAG_ROWS, MPI_COMM_WORLD);
		iw_free(msg);
	}
	iw_free(rows);
	iw_base_cache_free(bc);
}

/* Rank 0 deals units one at a time (dynamic balance: points differ a lot in
 * cost; see `struct deal`) and stores results at their canonical index. */
static int mpi_master(struct state *st, int nranks)
{
	unsigned long long *inflight = iw_calloc((size_t)nranks, sizeof *inflight);
	struct deal d;
	int busy = 0;
	if (!inflight)
		return iw_fail(&st->err, IW_ERUN, "out of memory");
	st->deal = deal_init(&d, st, nranks) ? NULL : &d; /* NULL: todo order, the same results */
	for (int r = 1; r < nranks; r++) {
		if (!should_stop(st) && st->next < st->ntodo && (!st->limit || st->next < st->limit)) {
			inflight[r] = pick(st, r);
			MPI_Send(&inflight[r], 1, MPI_UNSIGNED_LONG_LONG, r, TAG_WORK, MPI_COMM_WORLD);
			busy++;
		} else {
			MPI_Send(&inflight[r], 1, MPI_UNSIGNED_LONG_LONG, r, TAG_STOP, MPI_COMM_WORLD);
		}
	}
	while (busy > 0) {
		int flag = 0;
		MPI_Status stt;
		MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &stt);
		if (!flag) {
			progress(st, 0);
			struct timespec ts = {0, 2000000L};
			nanosleep(&ts, NULL);
			continue;
		}
		int len = 0, src = stt.MPI_SOURCE;
		MPI_Get_count(&stt, MPI_BYTE, &len);
		unsigned char *msg = iw_malloc(len ? (size_t)len : 1);
		if (!msg) {
			/* The busy workers wait to send their rows and would wait
			 * forever: the caller ends them with MPI_Abort, after what
			 * finished is written. */
			iw_free(inflight);
			if (st->deal)
				deal_free(st->deal);
			st->deal = NULL;
			st->mpi_abandoned = 1;
			return iw_fail(&st->err, IW_ERUN, "out of memory receiving a point's results (%d bytes)", len);
		}
		MPI_Recv(msg, len, MPI_BYTE, src, stt.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		busy--;
		if (stt.MPI_TAG == TAG_ERR) {
			int code = len > 1 && (msg[0] == IW_EINPUT || msg[0] == IW_EUSAGE) ? msg[0] : IW_ERUN;
			if (!st->failed)
				iw_fail(&st->err, code, "rank %d: %.1400s", src, len > 1 ? (char *)msg + 1 : "");
			st->failed = 1;
		} else {
			/* the rows, then the rank's baseline flag (a message without
			 * it fails to unpack in store_packed) */
			if (len > 0)
				st->mpi_shared += msg[len - 1];
			store_packed(st, (size_t)inflight[src], msg, len > 0 ? (size_t)len - 1 : 0);
		}
		iw_free(msg);
		if (!should_stop(st) && st->next < st->ntodo && (!st->limit || st->next < st->limit)) {
			inflight[src] = pick(st, src);
			MPI_Send(&inflight[src], 1, MPI_UNSIGNED_LONG_LONG, src, TAG_WORK, MPI_COMM_WORLD);
			busy++;
		} else {
			MPI_Send(&inflight[src], 1, MPI_UNSIGNED_LONG_LONG, src, TAG_STOP, MPI_COMM_WORLD);
		}
	}
	iw_free(inflight);
	if (st->deal)
		deal_free(st->deal);
	st->deal = NULL;
	return 0;
}
#endif

/* ------------------------------------------------------------------ write */
struct spool_src {
	const struct state *st;
	const uint64_t *ids;
	unsigned char *buf;
	size_t cap;
};

static int spool_get(void *ctx, size_t i, struct iw_row *row, struct iw_err *e)
{
	struct spool_src *sp = ctx;
	uint64_t id = sp->ids[i];
	size_t len = sp->st->rlen[id];
	if (len > sp->cap) {
		unsigned char *nb = iw_realloc(sp->buf, len);
		if (!nb)
			return iw_fail(e, IW_ERUN, "out of memory");
		sp->buf = nb;
		sp->cap = len;
	}
	size_t got = 0;
	while (got < len) {
		ssize_t r = pread(sp->st->spool, sp->buf + got, len - got, (off_t)(sp->st->roff[id] + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return iw_fail(e, IW_ERUN, "cannot read the sweep's spool file back");
		got += (size_t)r;
	}
	return iw_row_unpack(row, sp->buf, len, NULL, e);
}

static void spool_release(void *ctx, struct iw_row *row)
{
	(void)ctx;
	iw_results_row_free(row);
}

static int write_done(struct state *st, const char *out, const char *command_line, struct iw_err *e)
{
	const struct iw_sweep *s = st->s;
	size_t ns = s->base.nschemes, n = 0;
	for (size_t u = 0; u < s->nunits; u++)
		n += st->done[u] ? ns : 0;
	uint64_t *ids = iw_calloc(n ? n : 1, sizeof *ids);
	if (!ids)
		return iw_fail(e, IW_ERUN, "out of memory");
	size_t k = 0;
	for (size_t u = 0; u < s->nunits; u++)
		if (st->done[u])
			for (size_t si = 0; si < ns; si++, k++)
				ids[k] = u * ns + si;
	struct iw_model_unc unc;
	int rc = iw_model_unc_of(&unc, &s->base.tech, e);
	char *used = rc ? NULL : iw_tech_to_xml(&s->base.tech);
	if (rc == 0 && !used)
		rc = iw_fail(e, IW_ERUN, "out of memory");
	if (rc) {
		iw_model_unc_free(&unc);
		iw_free(ids);
		return rc;
	}
	struct iw_h5_meta m = {command_line, s->base.cfg.name, s->base.config_xml, s->base.tech.name,
			       s->base.tech.xml_text ? s->base.tech.xml_text : "", (const char *const *)s->param_names,
			       s->naxes, &unc, used, NULL};
	struct iw_h5_sweep sw = {s->xml, ids};
	struct spool_src sp = {st, ids, NULL, 0};
	struct iw_h5_source src = {n, spool_get, spool_release, &sp};
	rc = iw_h5_write_source(out, &m, &sw, &src, e);
	iw_free(sp.buf);
	iw_free(ids);
	iw_free(used);
	iw_model_unc_free(&unc);
	return rc;
}

/* The first line where texts a and b differ, each version after its name
 * (trimmed and cut short), for a message that says what changed. */
static void first_diff(const char *a, const char *aname, const char *b, const char *bname, char *buf, size_t n)
{
	int line = 1;
	const char *la = a, *lb = b;
	while (*a && *a == *b) {
		if (*a == '\n') {
			line++;
			la = a + 1;
			lb = b + 1;
		}
		a++;
		b++;
	}
	while (*la == ' ' || *la == '\t')
		la++;
	while (*lb == ' ' || *lb == '\t')
		lb++;
	int wa = (int)strcspn(la, "\n"), wb = (int)strcspn(lb, "\n");
	snprintf(buf, n, "line %d: %s '%.*s%s', %s '%.*s%s'", line, aname, IW_MIN(wa, 120), la, wa > 120 ? "..." : "",
		 bname, IW_MIN(wb, 120), lb, wb > 120 ? "..." : "");
}

/* A file's tool_version as a message gives it (every issuewatt file has one). */
static const char *version_of(const struct iw_results *r) { return r->tool_version ? r->tool_version : "(none)"; }

static int load_resume(struct state *st, const char *out, struct iw_err *e)
{
	const struct iw_sweep *s = st->s;
	if (access(out, F_OK) != 0)
		return 0; /* nothing to resume: a fresh start */
	struct iw_results res;
	int rc = iw_h5_read(out, &res, e);
	if (rc)
		return rc;
	char what[1000] = "", fname[600];
	snprintf(fname, sizeof fname, "%.500s's spec", out);
	if (!res.sweep_xml || iw_sweep_spec_diff(res.sweep_xml, fname, s->xml, s->path, what, sizeof what)) {
		/* (what was found is decided before the results are freed) */
		const char *found = res.sweep_xml ? "the results of a different spec" : "a file not made by 'issuewatt sweep'";
		iw_results_free(&res);
		return iw_fail(e, IW_EINPUT, "%s: --resume: expected results of the same spec %s, found %s%s%s%s", out,
			       s->path, found, *what ? " (" : "", what, *what ? ")" : "");
	}
	/* Another version's model may give other numbers for the same point:
	 * the points it left would not be joined with this one's. */
	if (strcmp(version_of(&res), IW_VERSION) != 0) {
		char found[64];
		snprintf(found, sizeof found, "%.60s", version_of(&res));
		iw_results_free(&res);
		return iw_fail(e, IW_EINPUT, "%s: --resume: expected results of this issuewatt version (%s), found "
					     "results of version %s (tool_version): run without --resume",
			       out, IW_VERSION, found);
	}
	/* The spec names its configuration by path: the file may have changed
	 * since, and its points would not be those of the file's. */
	if (res.config_xml && strcmp(res.config_xml, s->base.config_xml) != 0) {
		char cfg[256], diff[1200];
		iw_sweep_spec_input(s->xml, "config", cfg, sizeof cfg);
		first_diff(res.config_xml, "the file's", s->base.config_xml, "now", diff, sizeof diff);
		iw_results_free(&res);
		return iw_fail(e, IW_EINPUT, "%s: --resume: expected results of the configuration (%s) as it is now, found "
					     "another (/provenance/config_xml, %s): the configuration changed since; run "
					     "without --resume",
			       out, cfg, diff);
	}
	struct iw_model_unc unc;
	if ((rc = iw_model_unc_of(&unc, &s->base.tech, e))) {
		iw_results_free(&res);
		return rc;
	}
	int same = iw_model_unc_same(&unc, &res.unc);
	iw_model_unc_free(&unc);
	if (!same) {
		iw_results_free(&res);
		return iw_fail(e, IW_EINPUT, "%s: --resume: expected the model uncertainty of technology %s (its "
					     "coefficients' standard errors and correlations), found another: the file "
					     "changed since; run without --resume",
			       out, s->base.tech.origin);
	}
	/* (files of earlier versions do not say what they were priced with) */
	char *used = res.tech_used_xml ? iw_tech_to_xml(&s->base.tech) : NULL;
	rc = res.tech_used_xml && !used ? iw_fail(e, IW_ERUN, "out of memory") : 0;
	if (rc == 0 && used && strcmp(used, res.tech_used_xml) != 0)
		rc = iw_fail(e, IW_EINPUT, "%s: --resume: expected results priced with technology %s as it is now, found "
					   "other coefficients (/provenance/tech_used_xml): the file changed since; run "
					   "without --resume",
			     out, s->base.tech.origin);
	iw_free(used);
	if (rc) {
		iw_results_free(&res);
		return rc;
	}
	size_t ns = s->base.nschemes;
	for (size_t i = 0; i < res.n; i++) {
		uint64_t id = res.point_ids[i];
		if (id >= s->nrows || res.rows[i].nparams != s->naxes) {
			iw_results_free(&res);
			return iw_fail(e, IW_EINPUT, "%s: --resume: point %llu is not in the spec", out, (unsigned long long)id);
		}
	}
	/* Take whole units only (a unit's rows are always written together). */
	for (size_t i = 0; i + ns <= res.n; i++) {
		uint64_t id = res.point_ids[i];
		size_t u = (size_t)(id / ns);
		if (id % ns || st->done[u] || res.point_ids[i + ns - 1] != id + ns - 1)
			continue;
		store(st, u, &res.rows[i]);
		if (st->failed) {
			iw_results_free(&res);
			*e = st->err;
			return -(e->code ? e->code : IW_ERUN);
		}
		i += ns - 1;
	}
	iw_results_free(&res);
	return 0;
}

int iw_sweep_run(const struct iw_sweep *s, const char *out, struct iw_sweep_opts *o, struct iw_err *e)
{
	struct state st;
	char *partial = NULL; /* the finished points' file when not `out` */
	memset(&st, 0, sizeof st);
	st.s = s;
	st.stop = o->stop;
	st.progress = o->progress;
	st.tty = isatty(2);
	st.limit = o->limit;
	o->is_writer = 1;
	int rank = 0, nranks = 1;
#ifdef IW_MPI
	nranks = mpi_ranks(&rank);
	if (nranks > 1 && rank > 0) {
		o->is_writer = 0;
		mpi_worker(s);
		return 0;
	}
#endif
	pthread_mutex_init(&st.mu, NULL);
	pthread_cond_init(&st.cv, NULL);
	st.spool = -1;
	st.roff = iw_calloc(s->nrows ? s->nrows : 1, sizeof *st.roff);
	st.rlen = iw_calloc(s->nrows ? s->nrows : 1, sizeof *st.rlen);
	st.done = iw_calloc(s->nunits ? s->nunits : 1, 1);
	st.todo = iw_calloc(s->nunits ? s->nunits : 1, sizeof *st.todo);
	int rc = 0;
	if (!st.roff || !st.rlen || !st.done || !st.todo) {
		rc = iw_fail(e, IW_ERUN, "out of memory");
		goto done;
	}
	/* A fresh sweep over an existing results file replaces it only when
	 * it completes: stopped, it leaves the file as it was (it may hold a
	 * whole earlier sweep) and writes what finished beside it. */
	struct stat sb;
	int existed = !o->resume && stat(out, &sb) == 0;
	/* before any point runs: a bad -o must not cost the sweep */
	if ((rc = iw_out_check(out, e)))
		goto done;
	{
		/* the spool sits next to the output (same file system, usually larger than /tmp) */
		size_t pl = strlen(out) + 32;
		char *tmpl = iw_malloc(pl);
		if (!tmpl) {
			rc = iw_fail(e, IW_ERUN, "out of memory");
			goto done;
		}
		snprintf(tmpl, pl, "%s.spool.XXXXXX", out);
		st.spool = mkstemp(tmpl);
		if (st.spool >= 0)
			unlink(tmpl);
		iw_free(tmpl);
		if (st.spool < 0) {
			rc = iw_fail(e, IW_ERUN, "%s: cannot create a spool file beside it (%s)", out, strerror(errno));
			goto done;
		}
	}
	if (o->resume && (rc = load_resume(&st, out, e)))
		goto done;
	st.ndone = st.nrun = 0; /* the counting below includes the resumed units */
	/* Shards take units round-robin: neighbouring points (similar cost) spread evenly. */
	for (size_t u = 0; u < s->nunits; u++) {
		if (o->nshards > 1 && u % o->nshards != o->shard)
			continue;
		st.total++;
		if (st.done[u])
			st.ndone++;
		else
			st.todo[st.ntodo++] = u;
	}
	/* Points that share a baseline run next to each other, so that it is
	 * simulated once while they run (sweep_base.c); the file is written in
	 * canonical order whatever the order of work. */
	iw_sweep_order(s, st.todo, st.ntodo);
	st.base = iw_base_cache_new(2 * s->base.nworkloads + 64); /* NULL: no sharing, same results */
	st.ndone0 = st.ndone;
	st.t0 = st.last = now_s();
	if (st.progress && !st.tty)
		fprintf(stderr, "issuewatt: sweep %s: %zu points (%zu configurations x %zu workloads), %zu to run\n",
			s->name, st.total, s->nconfigs, s->base.nworkloads, st.ntodo);
	/* A trace bad deep inside (cut short, a corrupt line) would otherwise
	 * fail its first point after others ran: one pass through each trace
	 * costs far less than the sweep's runs of it and fails before any. */
	for (size_t wi = 0; wi < s->base.nworkloads && rc == 0; wi++) {
		const char *w = s->base.workloads[wi];
		size_t i = 0;
		while (i < st.ntodo && st.todo[i] % s->base.nworkloads != wi)
			i++;
		if (i == st.ntodo || !iw_path_is_trace(w))
			continue;
		if (st.progress)
			fprintf(stderr, "issuewatt: sweep %s: reading the trace %s through before any point runs\n", s->name,
				w);
		struct iw_err we = {0};
		if ((rc = iw_workload_check(w, (uint64_t)s->base.cfg.seed, s->base.cfg.workload_scale, &we)))
			iw_fail(e, we.code ? we.code : IW_EINPUT, "%s: workload %.200s: %s", s->path, w, we.msg);
	}
	if (rc)
		goto done;
	st.t0 = st.last = now_s();
#ifdef IW_MPI
	if (nranks > 1) {
		rc = mpi_master(&st, nranks);
		o->mpi_abandoned = st.mpi_abandoned;
		nranks = 1; /* the workers were told to stop (or are abandoned) */
	} else
#endif
		rc = run_threads(&st, o->jobs);
	(void)rank;
	(void)nranks;
	progress(&st, 1);
	if (rc) /* (the run's own failure: no memory, no threads) */
		*e = st.err;
	if (rc == 0 && st.failed) {
		*e = st.err;
		rc = -(e->code ? e->code : IW_ERUN);
	}
	/* What finished is worth keeping (resume takes it up) after a stop or a
	 * failed run, a spool that could not grow included (the units before
	 * are whole in it; the file is written whole or not at all), but not
	 * after invalid input: a point that cannot run as the spec has it is
	 * mended by changing the spec, which --resume then refuses, and exit 3
	 * leaves no output (an existing file stays as it was). */
	int keep = rc == 0 || e->code != IW_EINPUT;
	const char *dest = out; /* where the finished points go */
	if (existed && (rc || st.ndone < st.total)) {
		/* NAME.h5 -> NAME.partial.h5 (any other name: NAME.partial.h5 too) */
		size_t n = strlen(out), stem = n > 3 && !strcmp(out + n - 3, ".h5") ? n - 3 : n;
		partial = iw_malloc(stem + sizeof ".partial.h5");
		if (!partial) {
			if (rc == 0)
				rc = iw_fail(e, IW_ERUN, "out of memory");
			goto done;
		}
		memcpy(partial, out, stem);
		memcpy(partial + stem, ".partial.h5", sizeof ".partial.h5");
		dest = partial;
	}
	if ((st.ndone > 0 || rc == 0) && keep) {
		struct iw_err we = {0};
		int wrc = write_done(&st, dest, o->command_line, &we);
		if (wrc && rc == 0) {
			*e = we;
			rc = wrc;
		} else if (wrc == 0 && rc) {
			char msg[sizeof e->msg];
			if (partial)
				snprintf(msg, sizeof msg,
					 "%.700s; %.250s holds the %zu of %zu points that finished (%.200s, which existed "
					 "before, is left as it was): run again with -o %.250s --resume to finish",
					 e->msg, dest, st.ndone, st.total, out, dest);
			else
				snprintf(msg, sizeof msg,
					 "%.1000s; %.300s holds the %zu of %zu points that finished: run again with "
					 "--resume to finish",
					 e->msg, dest, st.ndone, st.total);
			memcpy(e->msg, msg, sizeof msg);
		}
	}
	o->done = st.ndone;
	o->total = st.total;
	o->base_shared = st.mpi_shared;
	if (st.base) {
		uint64_t hits, misses;
		iw_base_cache_stats(st.base, &hits, &misses);
		o->base_shared += (size_t)hits;
	}
	if (rc == 0 && st.ndone < st.total) {
		if (partial)
			rc = iw_fail(e, IW_ERUN,
				     "%s: stopped with %zu of %zu points finished, which are in %s (%s, which existed "
				     "before, is left as it was); run again with -o %s --resume to finish",
				     out, st.ndone, st.total, partial, out, partial);
		else
			rc = iw_fail(e, IW_ERUN,
				     "%s: stopped with %zu of %zu points finished; run again with --resume to finish", out,
				     st.ndone, st.total);
	}
done:
#ifdef IW_MPI
	/* failed before the master loop (a bad -o, no memory): release the
	 * workers, which wait for their first unit, or mpirun never returns */
	for (int r = 1; r < nranks; r++) {
		unsigned long long none = 0;
		MPI_Send(&none, 1, MPI_UNSIGNED_LONG_LONG, r, TAG_STOP, MPI_COMM_WORLD);
	}
#endif
	if (st.spool >= 0)
		close(st.spool);
	iw_free(st.roff);
	iw_free(st.rlen);
	iw_free(st.done);
	iw_free(st.todo);
	iw_base_cache_free(st.base);
	iw_free(partial);
	pthread_mutex_destroy(&st.mu);
	pthread_cond_destroy(&st.cv);
	return rc;
}

/* ------------------------------------------------------------------ merge */
struct idrow {
	uint64_t id;
	struct iw_row *row;
};
static int cmp_id(const void *a, const void *b)
{
	uint64_t x = ((const struct idrow *)a)->id, y = ((const struct idrow *)b)->id;
	return x < y ? -1 : x > y;
}

int iw_sweep_merge(const char *const *in, size_t nin, const char *out, const char *command_line, size_t *runs,
		   size_t *expected, struct iw_err *e)
{
	*runs = *expected = 0;
	struct iw_results *res = iw_calloc(nin ? nin : 1, sizeof *res);
	struct idrow *all = NULL;
	struct iw_row *rows = NULL;
	uint64_t *ids = NULL;
	size_t n = 0, k = 0;
	int rc = 0;
	if (!res)
		return iw_fail(e, IW_ERUN, "out of memory");
	for (size_t i = 0; i < nin && rc == 0; i++) {
		rc = iw_h5_read(in[i], &res[i], e);
		if (rc == 0 && !res[i].sweep_xml)
			rc = iw_fail(e, IW_EINPUT, "%s: expected a file written by 'issuewatt sweep' (no /sweep group)", in[i]);
		char what[1400] = "", an[600], bn[600];
		snprintf(an, sizeof an, "%.500s's spec", in[0]);
		snprintf(bn, sizeof bn, "%.500s's spec", in[i]);
		if (rc == 0 && i > 0 && iw_sweep_spec_diff(res[0].sweep_xml, an, res[i].sweep_xml, bn, what, sizeof what))
			rc = iw_fail(e, IW_EINPUT, "%s: expected results of the same spec as %s, found a different spec%s%s%s",
				     in[i], in[0], *what ? " (" : "", what, *what ? ")" : "");
		/* two versions of the model may give two numbers for one point */
		if (rc == 0 && i > 0 && strcmp(version_of(&res[i]), version_of(&res[0])) != 0)
			rc = iw_fail(e, IW_EINPUT,
				     "%s: expected results of the issuewatt version of %s (%s), found version %s "
				     "(tool_version): results of two versions of the model are not merged",
				     in[i], in[0], version_of(&res[0]), version_of(&res[i]));
		if (rc == 0 && i > 0 && res[i].config_xml && res[0].config_xml &&
		    strcmp(res[i].config_xml, res[0].config_xml) != 0) {
			char cfg[256], diff[1200];
			iw_sweep_spec_input(res[0].sweep_xml, "config", cfg, sizeof cfg);
			first_diff(res[0].config_xml, in[0], res[i].config_xml, in[i], diff, sizeof diff);
			rc = iw_fail(e, IW_EINPUT,
				     "%s: the configuration (%s) changed between the runs: expected the one of %s, found "
				     "another (/provenance/config_xml, %s)",
				     in[i], cfg, in[0], diff);
		}
		if (rc == 0 && i > 0 && !iw_model_unc_same(&res[i].unc, &res[0].unc))
			rc = iw_fail(e, IW_EINPUT,
				     "%s: expected the model uncertainty of %s (the same coefficients' standard errors and "
				     "correlations), found another: the technology file changed between the runs",
				     in[i], in[0]);
		if (rc == 0 && i > 0 && res[i].tech_used_xml && res[0].tech_used_xml &&
		    strcmp(res[i].tech_used_xml, res[0].tech_used_xml) != 0)
			rc = iw_fail(e, IW_EINPUT,
				     "%s: expected results priced with the technology of %s (/provenance/tech_used_xml), "
				     "found other coefficients: the technology file changed between the runs",
				     in[i], in[0]);
		if (rc == 0)
			n += res[i].n;
	}
	if (rc)
		goto done;
	all = iw_calloc(n ? n : 1, sizeof *all);
	if (!all) {
		rc = iw_fail(e, IW_ERUN, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < nin; i++)
		for (size_t j = 0; j < res[i].n; j++, k++)
			all[k] = (struct idrow){res[i].point_ids[j], &res[i].rows[j]};
	qsort(all, n, sizeof *all, cmp_id);
	rows = iw_calloc(n ? n : 1, sizeof *rows);
	ids = iw_calloc(n ? n : 1, sizeof *ids);
	if (!rows || !ids) {
		rc = iw_fail(e, IW_ERUN, "out of memory");
		goto done;
	}
	/* A point present twice (overlapping shards, a resumed copy) is kept once:
	 * the simulation is deterministic, so both copies hold the same numbers. */
	k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && ids[k - 1] == all[i].id)
			continue;
		ids[k] = all[i].id;
		rows[k++] = *all[i].row;
	}
	struct iw_h5_meta m = {command_line, res[0].config_name, res[0].config_xml, res[0].tech_name, res[0].tech_xml,
			       (const char *const *)res[0].param_names, res[0].nparams, nin ? &res[0].unc : NULL,
			       nin ? res[0].tech_used_xml : NULL, nin ? res[0].tool_version : NULL};
	struct iw_h5_sweep sw = {res[0].sweep_xml, ids};
	rc = nin ? iw_h5_write_sweep(out, &m, &sw, rows, k, e) : iw_fail(e, IW_EUSAGE, "no input file");
	if (rc == 0) {
		/* how complete the result is: the spec's own count of runs */
		struct iw_sweep spec;
		struct iw_err pe = {0};
		*runs = k;
		if (iw_sweep_parse(&spec, in[0], res[0].sweep_xml, strlen(res[0].sweep_xml), &pe) == 0)
			*expected = spec.nrows;
		iw_sweep_free(&spec);
	}
done:
	for (size_t i = 0; i < nin; i++)
		iw_results_free(&res[i]);
	iw_free(res);
	iw_free(all);
	iw_free(rows);
	iw_free(ids);
	return rc;
}
