/* tech/tech.c -- technology and device files (being built). */
#include "tech.h"

#include <string.h>

int iw_tech_load(struct iw_tech *t, const char *arg, struct iw_err *e)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "%s", arg);
	return 0;
}
void iw_tech_free(struct iw_tech *t) { (void)t; }
const struct iw_coef *iw_tech_coef(const struct iw_tech *t, const char *name)
{
	(void)t;
	(void)name;
	return NULL;
}
size_t iw_tech_preset_count(void) { return 0; }
const char *iw_tech_preset_name(size_t i)
{
	(void)i;
	return NULL;
}
int iw_tech_set(struct iw_tech *t, const char *a, struct iw_err *e)
{
	(void)t;
	(void)a;
	(void)e;
	return 0;
}
