/*
 * reports/sweep_base.c -- one in-order baseline run for all the sweep points
 * that differ only in other schemes' parameters.
 *
 * Every unit of a sweep runs the in-order baseline next to its schemes (the
 * metrics are relative to it).  The baseline's simulation reads no parameter
 * of another scheme (`loog.cus`, `ghost.isb_size`, ...: each is read by its
 * own scheme file only, and tests/test_sweep.c checks the in-order result
 * does not move when they do), so a sweep over such parameters, like the
 * LOOG-Vortex right-sizing of examples/sweep-thesis.xml, would simulate the
 * same baseline again at every point: half its runs.  The cache keys a
 * baseline by the configuration as XML with every other scheme's parameters
 * at their defaults, plus the workload, and keeps the run result; a hit is
 * priced again with the point's own configuration, so its row is exactly the
 * row the point would have computed.  Which thread computes what changes
 * nothing but the time taken, and a baseline being simulated is waited for,
 * never simulated twice.  Memory is bounded: at most `capacity` entries and
 * IW_BASE_BYTES of series, oldest out first.
 */
#include "reports.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define IW_BASE_BYTES ((size_t)64 << 20)

/* An entry is `pending` from the miss that makes a thread simulate it until
 * that thread puts the run or gives up; others asking for it meanwhile wait
 * rather than simulate it a second time (a thread waits only before it runs
 * anything, so no two wait on each other). */
struct base_entry {
	char *key;          /* NULL: a free slot */
	uint64_t hash, age;
	size_t bytes;
	int pending;
	struct iw_run_result run;
};

struct iw_base_cache {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct base_entry *e;
	size_t cap, bytes;
	uint64_t clock, hits, misses;
};

struct iw_base_cache *iw_base_cache_new(size_t capacity)
{
	struct iw_base_cache *c = iw_calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->cap = capacity ? capacity : 1;
	if (!(c->e = iw_calloc(c->cap, sizeof *c->e))) {
		iw_free(c);
		return NULL;
	}
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->cv, NULL);
	return c;
}

static void entry_free(struct iw_base_cache *c, struct base_entry *x)
{
	c->bytes -= x->bytes;
	iw_free(x->key);
	iw_run_result_free(&x->run);
	memset(x, 0, sizeof *x);
}

void iw_base_cache_free(struct iw_base_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->cap; i++)
		if (c->e[i].key)
			entry_free(c, &c->e[i]);
	pthread_cond_destroy(&c->cv);
	pthread_mutex_destroy(&c->mu);
	iw_free(c->e);
	iw_free(c);
}

void iw_base_cache_stats(struct iw_base_cache *c, uint64_t *hits, uint64_t *misses)
{
	pthread_mutex_lock(&c->mu);
	*hits = c->hits;
	*misses = c->misses;
	pthread_mutex_unlock(&c->mu);
}

/* A deep copy of a run result (its series, kernel records and their
 * sensitivities are the only pointers). */
static int run_copy(struct iw_run_result *dst, const struct iw_run_result *src)
{
	*dst = *src;
	struct iw_series *d = &dst->series;
	size_t n = src->series.n, nks = src->ksens ? src->nkstats * src->nksens : 0;
	d->cap = n;
	d->act = iw_malloc((n ? n : 1) * IW_A_COUNT * sizeof *d->act);
	d->insts = iw_malloc((n ? n : 1) * sizeof *d->insts);
	d->cycles = iw_malloc((n ? n : 1) * sizeof *d->cycles);
	dst->kstats = iw_malloc((src->nkstats ? src->nkstats : 1) * sizeof *dst->kstats);
	if (dst->kstats && src->nkstats)
		memcpy(dst->kstats, src->kstats, src->nkstats * sizeof *dst->kstats);
	dst->ksens = nks ? iw_malloc(nks * sizeof *dst->ksens) : NULL;
	if (dst->ksens)
		memcpy(dst->ksens, src->ksens, nks * sizeof *dst->ksens);
	if (!d->act || !d->insts || !d->cycles || !dst->kstats || (nks && !dst->ksens)) {
		iw_run_result_free(dst);
		return -1;
	}
	memcpy(d->act, src->series.act, n * IW_A_COUNT * sizeof *d->act);
	memcpy(d->insts, src->series.insts, n * sizeof *d->insts);
	memcpy(d->cycles, src->series.cycles, n * sizeof *d->cycles);
	return 0;
}

/* FNV-1a: a quick filter before the string comparison. */
static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static struct base_entry *find(struct iw_base_cache *c, const char *key, uint64_t h)
{
	for (size_t i = 0; i < c->cap; i++)
		if (c->e[i].key && c->e[i].hash == h && strcmp(c->e[i].key, key) == 0)
			return &c->e[i];
	return NULL;
}

/* A free slot, made by dropping the oldest finished entries while `need`
 * more bytes would pass the budget (NULL if every slot is pending). */
static struct base_entry *make_room(struct iw_base_cache *c, size_t need)
{
	for (;;) {
		struct base_entry *free_slot = NULL, *oldest = NULL;
		for (size_t i = 0; i < c->cap; i++) {
			struct base_entry *x = &c->e[i];
			if (!x->key)
				free_slot = free_slot ? free_slot : x;
			else if (!x->pending && (!oldest || x->age < oldest->age))
				oldest = x;
		}
		if (free_slot && c->bytes + need <= IW_BASE_BYTES)
			return free_slot;
		if (!oldest)
			return free_slot;
		entry_free(c, oldest);
	}
}

/* Is `key` a parameter of a scheme other than the baseline?  By the naming
 * rule of iw_params[] (perf/README.md), a scheme's are "<scheme>.<name>". */
static int other_scheme_key(const char *key)
{
	const char *dot = strchr(key, '.');
	char group[32];
	size_t gl = dot ? (size_t)(dot - key) : sizeof group;
	if (gl >= sizeof group)
		return 0;
	memcpy(group, key, gl);
	group[gl] = 0;
	return strcmp(group, "inorder") != 0 && iw_scheme_find(group) >= 0;
}

char *iw_base_key(const struct iw_config *cfg, const char *workload)
{
	/* every parameter of another scheme back to its default */
	struct iw_config k = *cfg, d;
	iw_config_defaults(&d);
	for (size_t i = 0; i < iw_param_count; i++) {
		const struct iw_param *p = &iw_params[i];
		if (!other_scheme_key(p->key))
			continue;
		size_t sz = p->type == IW_PT_REAL ? sizeof(double) : sizeof(int);
		memcpy((char *)&k + p->offset, (const char *)&d + p->offset, sz);
	}
	char *xml = iw_config_to_xml(&k);
	if (!xml)
		return NULL;
	size_t a = strlen(xml), b = strlen(workload);
	char *key = iw_malloc(a + b + 2);
	if (key) {
		memcpy(key, xml, a);
		key[a] = '\n';
		memcpy(key + a + 1, workload, b + 1);
	}
	iw_free(xml);
	return key;
}

int iw_base_cache_get(struct iw_base_cache *c, const char *key, struct iw_run_result *out)
{
	uint64_t h = hash_str(key);
	int got = 0;
	pthread_mutex_lock(&c->mu);
	struct base_entry *x;
	while ((x = find(c, key, h)) && x->pending)
		pthread_cond_wait(&c->cv, &c->mu);
	if (x && run_copy(out, &x->run) == 0) {
		got = 1;
		c->hits++;
	} else {
		c->misses++;
		/* the caller simulates it: mark it so that others wait for it */
		struct base_entry *y = x ? NULL : make_room(c, 0);
		char *k = y ? iw_strdup(key) : NULL;
		if (k) {
			y->key = k;
			y->hash = h;
			y->pending = 1;
			y->age = ++c->clock;
		}
	}
	pthread_mutex_unlock(&c->mu);
	return got;
}

void iw_base_cache_put(struct iw_base_cache *c, const char *key, const struct iw_run_result *run)
{
	uint64_t h = hash_str(key);
	size_t bytes = run->series.n * (IW_A_COUNT + 2) * sizeof(uint64_t) + strlen(key);
	struct iw_run_result copy;
	char *k = NULL;
	/* (failing to copy only loses the saving: the waiters then simulate it) */
	int ok = bytes <= IW_BASE_BYTES && (k = iw_strdup(key)) && run_copy(&copy, run) == 0;
	pthread_mutex_lock(&c->mu);
	struct base_entry *x = find(c, key, h);
	if (x && !x->pending) {
		ok = 0; /* there already */
	} else if (x) {
		entry_free(c, x); /* the marker: the run takes a slot of its own */
	}
	struct base_entry *y = ok ? make_room(c, bytes) : NULL;
	if (y) {
		y->key = k;
		y->hash = h;
		y->run = copy;
		y->bytes = bytes;
		y->age = ++c->clock;
		c->bytes += bytes;
	} else if (ok) {
		iw_run_result_free(&copy);
	}
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	if (!y)
		iw_free(k);
}

void iw_base_cache_abandon(struct iw_base_cache *c, const char *key)
{
	uint64_t h = hash_str(key);
	pthread_mutex_lock(&c->mu);
	struct base_entry *x = find(c, key, h);
	if (x && x->pending)
		entry_free(c, x);
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
}

/* A unit's family: the units that share its baseline (same workload, same
 * values on the axes that are not other schemes' parameters), numbered below
 * nunits.  The cache key decides what is shared; the family only orders
 * and deals the work. */
size_t iw_sweep_family(const struct iw_sweep *s, size_t unit)
{
	size_t c = unit / s->base.nworkloads, g = 0, radix = 1;
	for (size_t i = s->naxes; i-- > 0;) { /* the last axis fastest */
		size_t idx = c % s->axes[i].n;
		c /= s->axes[i].n;
		if (other_scheme_key(s->axes[i].key))
			continue;
		g += idx * radix;
		radix *= s->axes[i].n;
	}
	return g * s->base.nworkloads + unit % s->base.nworkloads;
}

char *iw_sweep_base_key(const struct iw_sweep *s, size_t unit)
{
	struct iw_config cfg;
	struct iw_err e = {0};
	if (iw_sweep_config(s, unit / s->base.nworkloads, &cfg, &e))
		return NULL;
	return iw_base_key(&cfg, s->base.workloads[unit % s->base.nworkloads]);
}

/* Units as (family without the workload, canonical id). */
struct order_key {
	size_t group, unit;
};

static int order_cmp(const void *a, const void *b)
{
	const struct order_key *x = a, *y = b;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return x->unit < y->unit ? -1 : x->unit > y->unit;
}

void iw_sweep_order(const struct iw_sweep *s, size_t *units, size_t n)
{
	/* without an axis of another scheme, every group is one configuration */
	int any = 0;
	for (size_t i = 0; i < s->naxes; i++)
		any |= other_scheme_key(s->axes[i].key);
	if (!any || n < 2)
		return;
	struct order_key *k = iw_malloc(n * sizeof *k);
	if (!k)
		return; /* the canonical order: slower, the same results */
	for (size_t j = 0; j < n; j++) {
		k[j].group = iw_sweep_family(s, units[j]) / s->base.nworkloads;
		k[j].unit = units[j];
	}
	qsort(k, n, sizeof *k, order_cmp);
	for (size_t j = 0; j < n; j++)
		units[j] = k[j].unit;
	iw_free(k);
}
