/* SPDX-License-Identifier: ISC */
/*
 * tabdecl.c: declared tasks read for device-only logs (tasktab.h,
 * --tasks FILE): CSV with a header naming name, gpu, start, end (host
 * optional), or a YAML list of mappings with those keys, each given to
 * the engine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "gtime.h"
#include "input.h"
#include "tasktab.h"
#include "ytree.h"

/* One declared task from its fields; 0, or -1 with a message. */
static int
declare(struct engine *e, const char *where, const char *name,
    const char *gpu, const char *start, const char *end, const char *host)
{
	uint32_t g;
	uint64_t t0, t1;

	if (name == NULL || gpu == NULL || start == NULL || end == NULL) {
		msg("%s: a task needs name, gpu, start and end", where);
		return -1;
	}
	if (num_parse_u32(gpu, strlen(gpu), &g) < 0) {
		msg("%s: gpu: expected a GPU index, got '%s'", where, gpu);
		return -1;
	}
	if (gtime_parse(start, &t0) < 0) {
		msg("%s: start: expected a time, got '%s'", where, start);
		return -1;
	}
	if (gtime_parse(end, &t1) < 0) {
		msg("%s: end: expected a time, got '%s'", where, end);
		return -1;
	}
	if (t1 < t0) {
		msg("%s: end is before start", where);
		return -1;
	}
	engine_declare(e, host != NULL ? host : "", g, name, t0, t1);
	return 0;
}

static int
declare_yaml(const char *path, struct engine *e)
{
	static const char *const keys[] = {"name", "gpu", "start", "end",
	    "host"};
	struct ynode *root;
	char err[512], where[600];
	size_t i, k;
	int n = 0;

	root = ytree_load(path, err, sizeof(err));
	if (root == NULL) {
		msg("%s", err);
		return -1;
	}
	if (root->type != Y_SEQ) {
		msg("%s:%u: expected a list of tasks", path, root->line);
		ytree_free(root);
		return -1;
	}
	for (i = 0; i < root->n; i++) {
		const struct ynode *m = root->kids[i];
		const char *v[5] = {NULL, NULL, NULL, NULL, NULL};

		snprintf(where, sizeof(where), "%s:%u", path, m->line);
		if (m->type != Y_MAP) {
			msg("%s: expected a mapping (name, gpu, start, end)",
			    where);
			ytree_free(root);
			return -1;
		}
		for (k = 0; k < m->n; k++) {
			size_t j;

			for (j = 0; j < 5; j++)
				if (strcmp(m->keys[k]->text, keys[j]) == 0)
					break;
			if (j == 5 || m->kids[k]->type != Y_SCALAR) {
				msg("%s:%u: %s: %s", path, m->keys[k]->line,
				    m->keys[k]->text, j == 5 ? "unknown key "
				    "(known: name, gpu, start, end, host)" :
				    "expected a value");
				ytree_free(root);
				return -1;
			}
			v[j] = m->kids[k]->text;
		}
		if (declare(e, where, v[0], v[1], v[2], v[3], v[4]) < 0) {
			ytree_free(root);
			return -1;
		}
		n++;
	}
	ytree_free(root);
	return n;
}

int
tasktab_declare(const char *path, struct engine *e)
{
	struct input *in;
	char *line, where[600];
	char *f[8];
	size_t len, lens[8];
	int col[5] = {-1, -1, -1, -1, -1}, n = 0, rc, nf, i;
	static const char *const keys[] = {"name", "gpu", "start", "end",
	    "host"};

	in = input_open(path);
	if (in == NULL) {
		msg("%s: cannot open:", path);
		return -1;
	}
	rc = input_getline(in, &line, &len);
	if (rc != 1) {
		msg("%s: empty: expected a CSV header name,gpu,start,end or "
		    "a YAML list", path);
		input_close(in);
		return -1;
	}
	nf = csv_split(line, f, lens, 8, 1);
	for (i = 0; i < nf && i < 8; i++) {
		size_t k;

		for (k = 0; k < 5; k++)
			if (lens[i] == strlen(keys[k]) &&
			    memcmp(f[i], keys[k], lens[i]) == 0)
				col[k] = i;
	}
	if (col[0] < 0 || col[1] < 0 || col[2] < 0 || col[3] < 0) {
		input_close(in);
		return declare_yaml(path, e);
	}
	while ((rc = input_getline(in, &line, &len)) == 1) {
		char *v[5];
		size_t k;

		if (len == 0)
			continue;
		snprintf(where, sizeof(where), "%s:%llu", path,
		    (unsigned long long)input_lineno(in));
		nf = csv_split(line, f, lens, 8, 1);
		if (nf < 0 || nf > 8) {
			msg("%s: %s", where, nf < 0 ? "bad quoting" :
			    "too many fields");
			input_close(in);
			return -1;
		}
		for (k = 0; k < 5; k++)
			v[k] = col[k] >= 0 && col[k] < nf ?
			    estrndup(f[col[k]], lens[col[k]]) : NULL;
		rc = declare(e, where, v[0], v[1], v[2], v[3], v[4]);
		for (k = 0; k < 5; k++)
			free(v[k]);
		if (rc < 0) {
			input_close(in);
			return -1;
		}
		n++;
	}
	if (rc < 0) {
		msg("%s: %s", path, input_error(in));
		input_close(in);
		return -1;
	}
	input_close(in);
	return n;
}
