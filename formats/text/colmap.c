/* SPDX-License-Identifier: ISC */
/*
 * colmap.c: CSV logs read through a column map (colmap.h): the map's
 * syntax, inline and in YAML, and the maps shipped with gpumem; the
 * reading of rows with it is colmapread.c's.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "colmap.h"
#include "colmapstate.h"
#include "field.h"
#include "ytree.h"

#ifndef GPUMEM_DATADIR
#define GPUMEM_DATADIR "/usr/local/share/gpumem"
#endif

const char *const colmap_keynames[NKEY] = {
	"timestamp", "gpu", "uuid", "bus_id", "host", "pid", "process_name",
	"memory_used", "memory_free", "memory_total"
};

const struct colmap_tkind colmap_tkinds[] = {
	{"auto", T_AUTO}, {"s", T_S}, {"ms", T_MS}, {"us", T_US},
	{"ns", T_NS}, {"iso", T_ISO}, {"nvsmi", T_NVSMI}, {"clock", T_CLOCK},
	{"elapsed", T_ELAPSED},
};

/* --- the map --- */

static int
find_key(const char *s, size_t n)
{
	int k;

	for (k = 0; k < NKEY; k++)
		if (strlen(colmap_keynames[k]) == n &&
		    memcmp(colmap_keynames[k], s, n) == 0)
			return k;
	return -1;
}

static int
is_mem(int k)
{
	return k == K_USED || k == K_FREE || k == K_TOTAL;
}


/* A date in a strptime format: then the cell says its own day. */
static int
has_date(const char *f)
{
	return strstr(f, "%Y") != NULL || strstr(f, "%y") != NULL ||
	    strstr(f, "%D") != NULL || strstr(f, "%F") != NULL ||
	    strstr(f, "%s") != NULL || strstr(f, "%c") != NULL;
}

/*
 * Set the spec of key k ("MB", "ms", "%d-%m-%Y %H:%M") from s[0..n).
 * Return 0, or -1 with a message in err.
 */
static int
set_spec(struct mapcol *c, int k, const char *s, size_t n, char *err,
    size_t errlen)
{
	size_t i;

	if (is_mem(k)) {
		if ((c->unit = num_mem_unit_bytes(s, n)) == 0) {
			snprintf(err, errlen, "%s: unit '%.*s': expected "
			    MEM_UNITS, colmap_keynames[k],
			    (int)n, s);
			return -1;
		}
		return 0;
	}
	if (k != K_TS) {
		snprintf(err, errlen, "%s: '%.*s': only timestamp and "
		    "memory_* take a ':SPEC'", colmap_keynames[k], (int)n, s);
		return -1;
	}
	for (i = 0; i < sizeof(colmap_tkinds) / sizeof(colmap_tkinds[0]); i++)
		if (strlen(colmap_tkinds[i].name) == n &&
		    memcmp(colmap_tkinds[i].name, s, n) == 0) {
			c->tkind = colmap_tkinds[i].kind;
			return 0;
		}
	if (memchr(s, '%', n) == NULL) {
		snprintf(err, errlen, "timestamp: time format '%.*s': expected "
		    "s, ms, us, ns, iso, nvsmi, clock, elapsed, auto or a "
		    "strptime format (%%Y-%%m-%%d %%H:%%M:%%S)", (int)n, s);
		return -1;
	}
	c->tkind = T_STRP;
	free(c->tfmt);
	c->tfmt = estrndup(s, n);
	if (!has_date(c->tfmt))
		c->tkind = T_CLOCK;
	return 0;
}

/* Set the column of key k from "COLUMN[?]". */
static int
set_column(struct mapcol *c, int k, const char *s, size_t n, char *err,
    size_t errlen)
{
	while (n > 0 && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if (n > 0 && s[n - 1] == '?') {
		c->optional = 1;
		n--;
	}
	if (n == 0) {
		snprintf(err, errlen, "%s: no column named",
		    colmap_keynames[k]);
		return -1;
	}
	free(c->column);
	c->column = estrndup(s, n);
	return 0;
}

/* "COLUMN[?][:SPEC]" for key k. */
static int
set_entry(struct colmap *m, int k, const char *s, size_t n, char *err,
    size_t errlen)
{
	const char *colon = memchr(s, ':', n);
	size_t cn = colon != NULL ? (size_t)(colon - s) : n;

	if (set_column(&m->c[k], k, s, cn, err, errlen) < 0)
		return -1;
	if (colon != NULL)
		return set_spec(&m->c[k], k, colon + 1, n - cn - 1, err,
		    errlen);
	return 0;
}

static int
check_map(struct colmap *m, char *err, size_t errlen)
{
	if (m->c[K_USED].column == NULL && m->c[K_FREE].column == NULL) {
		snprintf(err, errlen, "the map names no memory column: give "
		    "memory_used=COLUMN (or memory_free)");
		return -1;
	}
	return 0;
}

static struct colmap *
map_new(void)
{
	struct colmap *m = ecalloc(1, sizeof(*m));
	int k;

	for (k = 0; k < NKEY; k++)
		m->c[k].unit = 1048576.0;
	m->delim = ',';
	return m;
}

static struct colmap *
load_inline(const char *spec, char *err, size_t errlen)
{
	struct colmap *m = map_new();
	const char *p = spec;
	char sub[256];

	while (*p != '\0') {
		size_t n = strcspn(p, ","), kn;
		const char *eq = memchr(p, '=', n);
		int k;

		if (eq == NULL) {
			snprintf(err, errlen, "'%.*s': expected KEY=COLUMN",
			    (int)n, p);
			goto bad;
		}
		kn = (size_t)(eq - p);
		if ((k = find_key(p, kn)) < 0) {
			snprintf(err, errlen, "'%.*s': unknown key (known: "
			    "timestamp, gpu, uuid, bus_id, host, pid, "
			    "process_name, memory_used, memory_free, "
			    "memory_total)", (int)kn, p);
			goto bad;
		}
		if (set_entry(m, k, eq + 1, n - kn - 1, sub, sizeof(sub)) < 0) {
			snprintf(err, errlen, "%s", sub);
			goto bad;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	m->what = estrdup("CSV read through --map");
	if (check_map(m, err, errlen) == 0)
		return m;
bad:
	colmap_free(m);
	return NULL;
}

/* One key of a YAML map: a scalar "COLUMN[:SPEC]" or a small map. */
static int
yaml_entry(struct colmap *m, int k, const struct ynode *v, char *err,
    size_t errlen)
{
	const struct ynode *col, *spec, *opt;

	if (v->type == Y_SCALAR)
		return set_entry(m, k, v->text, strlen(v->text), err, errlen);
	if (v->type != Y_MAP || (col = ytree_get(v, "column")) == NULL ||
	    col->type != Y_SCALAR) {
		snprintf(err, errlen, "%s: expected COLUMN[:SPEC] or "
		    "{column: C, unit: U, time: T, optional: true}",
		    colmap_keynames[k]);
		return -1;
	}
	if (set_column(&m->c[k], k, col->text, strlen(col->text), err,
	    errlen) < 0)
		return -1;
	spec = ytree_get(v, is_mem(k) ? "unit" : "time");
	if (spec != NULL && (spec->type != Y_SCALAR ||
	    set_spec(&m->c[k], k, spec->text, strlen(spec->text), err,
	    errlen) < 0)) {
		if (spec->type != Y_SCALAR)
			snprintf(err, errlen, "%s: expected a scalar",
			    colmap_keynames[k]);
		return -1;
	}
	opt = ytree_get(v, "optional");
	if (opt != NULL && opt->type == Y_SCALAR &&
	    strcmp(opt->text, "true") == 0)
		m->c[k].optional = 1;
	return 0;
}

static struct colmap *
load_yaml(const char *path, char *err, size_t errlen)
{
	struct ynode *root;
	struct colmap *m;
	char sub[256];
	size_t i;

	if ((root = ytree_load(path, err, errlen)) == NULL)
		return NULL;
	m = map_new();
	if (root->type != Y_MAP) {
		snprintf(err, errlen, "%s:%u: expected a map of keys to "
		    "columns", path, root->line);
		goto bad;
	}
	for (i = 0; i < root->n; i++) {
		const char *key = root->keys[i]->text;
		const struct ynode *v = root->kids[i];
		int k = find_key(key, strlen(key));

		if (strcmp(key, "description") == 0 && v->type == Y_SCALAR) {
			free(m->what);
			m->what = estrdup(v->text);
		} else if (strcmp(key, "delimiter") == 0 &&
		    v->type == Y_SCALAR && strlen(v->text) == 1) {
			m->delim = v->text[0];
		} else if (k < 0) {
			snprintf(err, errlen, "%s:%u: '%s': unknown key "
			    "(known: description, delimiter, timestamp, gpu, "
			    "uuid, bus_id, host, pid, process_name, "
			    "memory_used, memory_free, memory_total)", path,
			    root->keys[i]->line, key);
			goto bad;
		} else if (yaml_entry(m, k, v, sub, sizeof(sub)) < 0) {
			snprintf(err, errlen, "%s:%u: %s", path, v->line, sub);
			goto bad;
		}
	}
	if (m->what == NULL) {
		m->what = emalloc(strlen(path) + 32);
		sprintf(m->what, "CSV read through map %s", path);
	}
	if (check_map(m, sub, sizeof(sub)) < 0) {
		snprintf(err, errlen, "%s: %s", path, sub);
		goto bad;
	}
	ytree_free(root);
	return m;
bad:
	ytree_free(root);
	colmap_free(m);
	return NULL;
}

/*
 * Where a shipped map may be, relative to the folder of the running
 * program: an installed one's share/gpumem/maps beside its bin/ (any
 * --prefix, the Debian package's /usr), and the source tree's
 * formats/maps when it runs from the tree (bin/, build/san/bin/).
 */
static const char *const beside_exe[] = {
	"/../share/gpumem/maps", "/../formats/maps", "/../../../formats/maps",
	NULL
};

/* *path = dir sub/name.yaml (the old one freed); whether it is there. */
static int
map_in(char **path, const char *dir, const char *sub, const char *name)
{
	free(*path);
	*path = emalloc(strlen(dir) + strlen(sub) + strlen(name) + 7);
	sprintf(*path, "%s%s/%s.yaml", dir, sub, name);
	return access(*path, F_OK) == 0;
}

/*
 * A shipped map's file: NAME.yaml in $GPUMEM_MAPS when it is set, else
 * the first of the folders beside the program (beside_exe) and the data
 * folder it was built for that holds it; NULL when none does.
 */
static char *
shipped(const char *name)
{
	const char *dir = getenv("GPUMEM_MAPS");
	char self[4096], *path = NULL, *slash;
	ssize_t n;
	size_t i;

	if (dir != NULL && *dir != '\0') {
		if (map_in(&path, dir, "", name))
			return path;
		free(path);
		return NULL;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		if ((slash = strrchr(self, '/')) != NULL)
			*slash = '\0';
		for (i = 0; slash != NULL && beside_exe[i] != NULL; i++)
			if (map_in(&path, self, beside_exe[i], name))
				return path;
	}
	if (map_in(&path, GPUMEM_DATADIR "/maps", "", name))
		return path;
	free(path);
	return NULL;
}

struct colmap *
colmap_load(const char *spec, char *err, size_t errlen)
{
	struct colmap *m;
	char *path;
	size_t n = strlen(spec);

	if (strchr(spec, '=') != NULL)
		return load_inline(spec, err, errlen);
	if (strchr(spec, '/') != NULL || (n > 5 &&
	    strcmp(spec + n - 5, ".yaml") == 0) || (n > 4 &&
	    strcmp(spec + n - 4, ".yml") == 0))
		return load_yaml(spec, err, errlen);
	path = shipped(spec);
	if (path == NULL) {
		const char *env = getenv("GPUMEM_MAPS");

		snprintf(err, errlen, "'%s': not KEY=COLUMN,..., a YAML file "
		    "or a map shipped with gpumem (amd-smi, rocm-smi, "
		    "xpu-smi; looked in %s)", spec, env != NULL && *env !=
		    '\0' ? "$GPUMEM_MAPS" : "share/gpumem/maps beside the "
		    "program and " GPUMEM_DATADIR "/maps");
		return NULL;
	}
	m = load_yaml(path, err, errlen);
	free(path);
	return m;
}

void
colmap_free(struct colmap *m)
{
	int k;

	if (m == NULL)
		return;
	for (k = 0; k < NKEY; k++) {
		free(m->c[k].column);
		free(m->c[k].tfmt);
	}
	free(m->what);
	free(m);
}

const char *
colmap_what(const struct colmap *m)
{
	return m->what;
}
