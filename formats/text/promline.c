/* SPDX-License-Identifier: ISC */
/*
 * promline.c: a sample line of the Prometheus text exposition format
 * split into its metric name, labels (values unescaped), value and
 * timestamp (promline.h).
 */
#include <ctype.h>
#include <string.h>

#include "gtime.h"
#include "num.h"
#include "promline.h"

const char *
prom_label(const struct prom_line *pl, const char *name)
{
	size_t i, n = strlen(name);

	for (i = 0; i < pl->nlab; i++)
		if (pl->lab[i].nl == n && memcmp(pl->lab[i].name, name, n) == 0)
			return pl->vals.buf + pl->lab[i].voff;
	return NULL;
}

/* The labels "{a="x",b="y"}" at *sp; advance *sp past '}'. */
static int
parse_labels(struct prom_line *pl, const char **sp, const char **why)
{
	const char *s = *sp + 1;

	for (;;) {
		const char *n0;
		size_t k;

		s += strspn(s, " \t");
		if (*s == '}') {
			*sp = s + 1;
			return 0;
		}
		n0 = s;
		if (!(isalpha((unsigned char)*s) || *s == '_')) {
			*why = "a label name";
			return -1;
		}
		while (isalnum((unsigned char)*s) || *s == '_')
			s++;
		if (pl->nlab == PROM_MAXLABELS) {
			*why = "at most 64 labels";
			return -1;
		}
		k = pl->nlab++;
		pl->lab[k].name = n0;
		pl->lab[k].nl = (size_t)(s - n0);
		s += strspn(s, " \t");
		if (*s++ != '=') {
			*why = "'=' after a label name";
			return -1;
		}
		s += strspn(s, " \t");
		if (*s++ != '"') {
			*why = "a quoted label value";
			return -1;
		}
		pl->lab[k].voff = pl->vals.len;
		while (*s != '"') {
			if (*s == '\0') {
				*why = "the end of a label value";
				return -1;
			}
			if (*s == '\\' && s[1] != '\0') {
				s++;
				sbuf_addc(&pl->vals, *s == 'n' ? '\n' : *s);
			} else
				sbuf_addc(&pl->vals, *s);
			s++;
		}
		s++;
		sbuf_addc(&pl->vals, '\0');
		s += strspn(s, " \t");
		if (*s == ',')
			s++;
		else if (*s != '}') {
			*why = "',' or '}' after a label";
			return -1;
		}
	}
}

int
prom_parse(const char *line, struct prom_line *pl, const char **why)
{
	const char *s = line;
	size_t tl;

	pl->nlab = 0;
	pl->has_ts = 0;
	sbuf_reset(&pl->vals);
	sbuf_add(&pl->vals, "", 0);
	if (!(isalpha((unsigned char)*s) || *s == '_' || *s == ':')) {
		*why = "a metric name";
		return -1;
	}
	while (isalnum((unsigned char)*s) || *s == '_' || *s == ':')
		s++;
	pl->name = line;
	pl->nl = (size_t)(s - line);
	if (*s == '{' && parse_labels(pl, &s, why) < 0)
		return -1;
	if (*s != ' ' && *s != '\t') {
		*why = "a space and a value after the metric";
		return -1;
	}
	s += strspn(s, " \t");
	pl->value = s;
	pl->vl = strcspn(s, " \t");
	if (pl->vl == 0) {
		*why = "a value";
		return -1;
	}
	s += pl->vl;
	s += strspn(s, " \t");
	if (*s == '\0')
		return 0;
	tl = strcspn(s, " \t");
	if (num_parse_u64(s, tl, &pl->ts_ms) < 0 || pl->ts_ms > UINT64_MAX /
	    NS_PER_MS || s[tl + strspn(s + tl, " \t")] != '\0') {
		*why = "a timestamp in milliseconds after the value";
		return -1;
	}
	pl->has_ts = 1;
	return 0;
}
