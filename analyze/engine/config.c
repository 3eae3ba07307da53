/* SPDX-License-Identifier: ISC */
/* config.c: the YAML configuration, checked key by key. */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "gtime.h"
#include "util.h"
#include "ytree.h"

struct ctx {
	const char *path;
	int failed;
};

static void
bad(struct ctx *x, const struct ynode *n, const char *key, const char *fmt,
    ...) __attribute__((format(printf, 4, 5)));

static void
bad(struct ctx *x, const struct ynode *n, const char *key, const char *fmt,
    ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;

	if (x->failed)
		return;
	x->failed = 1;
	va_start(ap, fmt);
	sbuf_vprintf(&sb, fmt, ap);
	va_end(ap);
	msg("%s:%u: %s: %s", x->path, n->line, key, sb.buf);
	sbuf_release(&sb);
}

/* Check that map n has only the keys in known (NULL-terminated). */
static int
only_keys(struct ctx *x, const struct ynode *n, const char *where,
    const char *const *known)
{
	size_t i, k;

	for (i = 0; i < n->n; i++) {
		for (k = 0; known[k] != NULL; k++)
			if (strcmp(n->keys[i]->text, known[k]) == 0)
				break;
		if (known[k] == NULL) {
			struct sbuf sb = SBUF_INIT;

			for (k = 0; known[k] != NULL; k++)
				sbuf_printf(&sb, "%s%s", k ? ", " : "",
				    known[k]);
			bad(x, n->keys[i], n->keys[i]->text, "unknown key%s%s "
			    "(known: %s)", where[0] ? " in " : "", where,
			    sb.buf);
			sbuf_release(&sb);
			return -1;
		}
	}
	return 0;
}

static int
want(struct ctx *x, const struct ynode *n, enum ynode_type t,
    const char *key)
{
	static const char *const names[] = {"a value", "a mapping",
	    "a list"};

	if (n->type != t) {
		bad(x, n, key, "expected %s", names[t]);
		return -1;
	}
	return 0;
}

static int
get_u32(struct ctx *x, const struct ynode *n, const char *key,
    const char *what, uint32_t *v)
{
	if (want(x, n, Y_SCALAR, key) < 0)
		return -1;
	if (num_parse_u32(n->text, strlen(n->text), v) < 0) {
		bad(x, n, key, "expected %s, got '%s'", what, n->text);
		return -1;
	}
	return 0;
}

/*
 * A size: the setting mkey (NAME_mib) or NAME of map n, an integer of MiB or a
 * number with a unit ("1GiB", "512 MiB", "1.5GB"; num_parse_mib).  Return 1
 * and store it (and the line of its value), 0 when neither is set, -1
 * when it is bad (said, with the unit's file:line).
 */
static int
get_size(struct ctx *x, const struct ynode *n, const char *where,
    const char *name, const char *mkey, uint32_t *v, unsigned *line)
{
	const struct ynode *a, *b, *val;
	char key[160];
	const char *u = NULL;
	size_t ul = 0;
	int rc;

	a = ytree_get(n, mkey);
	b = ytree_get(n, name);
	snprintf(key, sizeof(key), "%s%s%s", where, where[0] ? "." : "",
	    b != NULL ? name : mkey);
	if (a != NULL && b != NULL) {
		bad(x, b, key, "give %s or %s, not both", name, mkey);
		return -1;
	}
	if ((val = a != NULL ? a : b) == NULL)
		return 0;
	if (want(x, val, Y_SCALAR, key) < 0)
		return -1;
	rc = num_parse_mib(val->text, v, &u, &ul);
	if (rc == -2)
		bad(x, val, key, "unknown unit '%.*s' in '%s' (known: %s)",
		    (int)ul, u, val->text, MEM_UNITS);
	else if (rc == -3)
		bad(x, val, key, "'%s' is more than 4 PiB", val->text);
	else if (rc < 0)
		bad(x, val, key, "expected an integer of MiB or a size with a "
		    "unit (512, 1GiB, 1.5GB), got '%s'", val->text);
	if (rc < 0)
		return -1;
	if (line != NULL)
		*line = val->line;
	return 1;
}

/* Seconds as a number ("5", "2.5") or a duration ("500ms", "1m"). */
static int
get_secs(struct ctx *x, const struct ynode *n, const char *key,
    uint64_t *ns)
{
	if (want(x, n, Y_SCALAR, key) < 0)
		return -1;
	if (gtime_duration(n->text, ns) < 0) {
		bad(x, n, key, "expected seconds (5, 2.5, 500ms), got '%s'",
		    n->text);
		return -1;
	}
	return 0;
}

/* "25%", or a number of percent. */
static int
get_percent(struct ctx *x, const struct ynode *n, const char *key,
    double *v)
{
	char *end;
	double d;

	if (want(x, n, Y_SCALAR, key) < 0)
		return -1;
	d = strtod(n->text, &end);
	if (end == n->text || (*end != '\0' && strcmp(end, "%") != 0) ||
	    !(d >= 0) || d > 1e6) {
		bad(x, n, key, "expected a percentage (25%%), got '%s'",
		    n->text);
		return -1;
	}
	*v = d / 100;
	return 0;
}

/* YAML 1.1's booleans as people write them: true/false, yes/no, on/off. */
static int
get_bool(struct ctx *x, const struct ynode *n, const char *key, int *v)
{
	static const char *const yes[] = {"true", "True", "TRUE", "yes",
	    "Yes", "YES", "on", "On", "ON", NULL};
	static const char *const no[] = {"false", "False", "FALSE", "no",
	    "No", "NO", "off", "Off", "OFF", NULL};
	size_t i;

	if (want(x, n, Y_SCALAR, key) < 0)
		return -1;
	for (i = 0; yes[i] != NULL; i++)
		if (strcmp(n->text, yes[i]) == 0) {
			*v = 1;
			return 0;
		}
	for (i = 0; no[i] != NULL; i++)
		if (strcmp(n->text, no[i]) == 0) {
			*v = 0;
			return 0;
		}
	bad(x, n, key, "expected true or false, got '%s'", n->text);
	return -1;
}

static int
get_str(struct ctx *x, const struct ynode *n, const char *key, char **s)
{
	if (want(x, n, Y_SCALAR, key) < 0)
		return -1;
	*s = estrdup(n->text);
	return 0;
}

/* match: PATTERN or pid: N, exactly one of them. */
static int
get_match(struct ctx *x, const struct ynode *n, const char *where,
    struct config_match *m)
{
	const struct ynode *pat = ytree_get(n, "match");
	const struct ynode *pid = ytree_get(n, "pid");

	if (pat != NULL && pid != NULL) {
		bad(x, pid, where, "give either match or pid, not both");
		return -1;
	}
	if (pat == NULL && pid == NULL) {
		bad(x, n, where, "needs match: PATTERN or pid: N");
		return -1;
	}
	if (pid != NULL) {
		m->by_pid = 1;
		return get_u32(x, pid, "pid", "a process id", &m->pid);
	}
	return get_str(x, pat, "match", &m->pattern);
}

static int
gate_fields(struct ctx *x, const struct ynode *n, const char *where,
    struct cfg_gate *g)
{
	const struct ynode *v;
	char key[64];
	int rc;

	g->line = n->line;
	if ((rc = get_size(x, n, where, "max_leak", "max_leak_mib",
	    &g->max_leak_mib, &g->leak_line)) < 0)
		return -1;
	g->has_leak = rc;
	if ((v = ytree_get(n, "max_release_delay_s")) != NULL) {
		snprintf(key, sizeof(key), "%s.max_release_delay_s", where);
		if (get_secs(x, v, key, &g->max_delay_ns) < 0)
			return -1;
		g->has_delay = 1;
		g->delay_line = v->line;
	}
	if ((v = ytree_get(n, "allow_running_after_command")) != NULL) {
		snprintf(key, sizeof(key), "%s.allow_running_after_command",
		    where);
		if (get_bool(x, v, key, &g->allow_running) < 0)
			return -1;
		g->has_running = 1;
		g->running_line = v->line;
	}
	return 0;
}

static int
load_devices(struct ctx *x, struct config *c, const struct ynode *seq)
{
	static const char *const known[] = {"gpu", "host", "memory_total_mib",
	    "memory_total", "idle_mib", "idle", NULL};
	size_t i;
	int rc;

	if (want(x, seq, Y_SEQ, "devices") < 0)
		return -1;
	for (i = 0; i < seq->n; i++) {
		const struct ynode *n = seq->kids[i], *v;
		struct cfg_device d;

		memset(&d, 0, sizeof(d));
		if (want(x, n, Y_MAP, "devices") < 0 ||
		    only_keys(x, n, "devices", known) < 0)
			return -1;
		if ((v = ytree_get(n, "gpu")) == NULL) {
			bad(x, n, "devices", "each device needs gpu: N");
			return -1;
		}
		if (get_u32(x, v, "devices.gpu", "a GPU index", &d.gpu) < 0)
			return -1;
		if ((v = ytree_get(n, "host")) != NULL &&
		    get_str(x, v, "devices.host", &d.host) < 0)
			return -1;
		c->dev = egrow(c->dev, c->ndev, sizeof(*c->dev));
		c->dev[c->ndev++] = d;
		if ((rc = get_size(x, n, "devices", "memory_total",
		    "memory_total_mib", &c->dev[c->ndev - 1].total,
		    NULL)) < 0)
			return -1;
		c->dev[c->ndev - 1].has_total = rc;
		if ((rc = get_size(x, n, "devices", "idle", "idle_mib",
		    &c->dev[c->ndev - 1].idle, NULL)) < 0)
			return -1;
		c->dev[c->ndev - 1].has_idle = rc;
	}
	return 0;
}

static int
load_names(struct ctx *x, struct config *c, const struct ynode *seq)
{
	static const char *const known[] = {"match", "pid", "name", NULL};
	size_t i;

	if (want(x, seq, Y_SEQ, "names") < 0)
		return -1;
	for (i = 0; i < seq->n; i++) {
		const struct ynode *n = seq->kids[i], *v;
		struct cfg_name *nm;

		if (want(x, n, Y_MAP, "names") < 0 ||
		    only_keys(x, n, "names", known) < 0)
			return -1;
		c->names = egrow(c->names, c->nnames, sizeof(*c->names));
		nm = &c->names[c->nnames++];
		memset(nm, 0, sizeof(*nm));
		nm->line = n->line;
		if (get_match(x, n, "names", &nm->m) < 0)
			return -1;
		if ((v = ytree_get(n, "name")) == NULL) {
			bad(x, n, "names", "each entry needs name: NAME");
			return -1;
		}
		if (get_str(x, v, "names.name", &nm->name) < 0)
			return -1;
	}
	return 0;
}

static int
load_gates(struct ctx *x, struct config *c, const struct ynode *seq)
{
	static const char *const known[] = {"match", "pid", "max_leak_mib",
	    "max_leak", "max_release_delay_s", "allow_running_after_command",
	    NULL};
	size_t i;

	if (want(x, seq, Y_SEQ, "tasks") < 0)
		return -1;
	for (i = 0; i < seq->n; i++) {
		const struct ynode *n = seq->kids[i];
		struct cfg_gate *g;

		if (want(x, n, Y_MAP, "tasks") < 0 ||
		    only_keys(x, n, "tasks", known) < 0)
			return -1;
		c->gates = egrow(c->gates, c->ngates, sizeof(*c->gates));
		g = &c->gates[c->ngates++];
		memset(g, 0, sizeof(*g));
		if (get_match(x, n, "tasks", &g->m) < 0 ||
		    gate_fields(x, n, "tasks", g) < 0)
			return -1;
	}
	return 0;
}

void
config_init(struct config *c)
{
	memset(c, 0, sizeof(*c));
	c->tolerance = CONFIG_TOLERANCE;
}

int
config_load(struct config *c, const char *path)
{
	static const char *const top[] = {"tolerance_mib", "tolerance",
	    "devices", "names", "defaults", "tasks", "gpus", "baseline", NULL};
	static const char *const defaults[] = {"max_leak_mib", "max_leak",
	    "max_release_delay_s", "allow_running_after_command", NULL};
	static const char *const gpus[] = {"max_unattributed_mib_at_end",
	    "max_unattributed_at_end", NULL};
	static const char *const baseline[] = {"max_delay_regression",
	    "max_leak_regression_mib", "max_leak_regression", NULL};
	struct ctx x = {path, 0};
	struct ynode *root, *v;
	char err[512];
	int rc;

	root = ytree_load(path, err, sizeof(err));
	if (root == NULL) {
		msg("%s", err);
		return -1;
	}
	c->path = estrdup(path);
	if (root->type != Y_MAP) {
		bad(&x, root, "(top)", "expected a mapping of settings");
		goto out;
	}
	if (only_keys(&x, root, "", top) < 0)
		goto out;
	if (get_size(&x, root, "", "tolerance", "tolerance_mib",
	    &c->tolerance, NULL) < 0)
		goto out;
	if ((v = ytree_get(root, "devices")) != NULL &&
	    load_devices(&x, c, v) < 0)
		goto out;
	if ((v = ytree_get(root, "names")) != NULL && load_names(&x, c, v) < 0)
		goto out;
	if ((v = ytree_get(root, "defaults")) != NULL) {
		if (want(&x, v, Y_MAP, "defaults") < 0 ||
		    only_keys(&x, v, "defaults", defaults) < 0 ||
		    gate_fields(&x, v, "defaults", &c->defaults) < 0)
			goto out;
	}
	if ((v = ytree_get(root, "tasks")) != NULL && load_gates(&x, c, v) < 0)
		goto out;
	if ((v = ytree_get(root, "gpus")) != NULL) {
		if (want(&x, v, Y_MAP, "gpus") < 0 ||
		    only_keys(&x, v, "gpus", gpus) < 0)
			goto out;
		if ((rc = get_size(&x, v, "gpus", "max_unattributed_at_end",
		    "max_unattributed_mib_at_end", &c->max_unattr_end,
		    &c->unattr_line)) < 0)
			goto out;
		c->has_max_unattr_end = rc;
	}
	if ((v = ytree_get(root, "baseline")) != NULL) {
		struct ynode *w;

		if (want(&x, v, Y_MAP, "baseline") < 0 ||
		    only_keys(&x, v, "baseline", baseline) < 0)
			goto out;
		if ((w = ytree_get(v, "max_delay_regression")) != NULL) {
			if (get_percent(&x, w, "baseline.max_delay_regression",
			    &c->delay_regression) < 0)
				goto out;
			c->has_delay_regression = 1;
			c->delay_regression_line = w->line;
		}
		if ((rc = get_size(&x, v, "baseline", "max_leak_regression",
		    "max_leak_regression_mib", &c->leak_regression_mib,
		    &c->leak_regression_line)) < 0)
			goto out;
		c->has_leak_regression = rc;
	}
out:
	ytree_free(root);
	if (x.failed) {
		/* Nothing half-loaded stays behind. */
		config_release(c);
		return -1;
	}
	return 0;
}

static void
match_release(struct config_match *m)
{
	free(m->pattern);
}

void
config_release(struct config *c)
{
	size_t i;

	for (i = 0; i < c->ndev; i++)
		free(c->dev[i].host);
	free(c->dev);
	for (i = 0; i < c->nnames; i++) {
		match_release(&c->names[i].m);
		free(c->names[i].name);
	}
	free(c->names);
	match_release(&c->defaults.m);
	for (i = 0; i < c->ngates; i++)
		match_release(&c->gates[i].m);
	free(c->gates);
	free(c->path);
	config_init(c);
}

int
config_match(const struct config_match *m, uint32_t pid, const char *name)
{
	if (m->by_pid)
		return pid == m->pid;
	if (m->pattern == NULL)
		return 1;
	return fnmatch(m->pattern, name, 0) == 0;
}

const char *
config_task_name(const struct config *c, uint32_t pid, const char *name)
{
	size_t i;

	for (i = 0; i < c->nnames; i++)
		if (config_match(&c->names[i].m, pid, name))
			return c->names[i].name;
	return NULL;
}

const struct cfg_device *
config_device(const struct config *c, const char *host, uint32_t gpu)
{
	size_t i;

	for (i = 0; i < c->ndev; i++)
		if (c->dev[i].gpu == gpu && (c->dev[i].host == NULL ||
		    strcmp(c->dev[i].host, host) == 0))
			return &c->dev[i];
	return NULL;
}
