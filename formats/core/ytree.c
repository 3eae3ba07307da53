/* SPDX-License-Identifier: ISC */
/* ytree.c: libyaml events into a tree with line numbers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "hmap.h"
#include "util.h"
#include "ytree.h"

#define MAXDEPTH 32

struct loader {
	yaml_parser_t p;
	const char *path;
	char *err;
	size_t errlen;
	int failed;
};

static void
fail(struct loader *l, unsigned line, const char *what)
{
	if (!l->failed)
		snprintf(l->err, l->errlen, "%s:%u: %s", l->path, line, what);
	l->failed = 1;
}

static struct ynode *
node_new(enum ynode_type t, unsigned line)
{
	struct ynode *n = ecalloc(1, sizeof(*n));

	n->type = t;
	n->line = line;
	return n;
}

static void
push(struct ynode *parent, struct ynode *key, struct ynode *kid)
{
	parent->kids = egrow(parent->kids, parent->n, sizeof(*parent->kids));
	if (parent->type == Y_MAP)
		parent->keys = egrow(parent->keys, parent->n,
		    sizeof(*parent->keys));
	if (parent->type == Y_MAP)
		parent->keys[parent->n] = key;
	parent->kids[parent->n++] = kid;
}

static int
next_event(struct loader *l, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&l->p, ev)) {
		char buf[256];

		snprintf(buf, sizeof(buf), "%s%s%s",
		    l->p.problem != NULL ? l->p.problem : "invalid YAML",
		    l->p.context != NULL ? " " : "",
		    l->p.context != NULL ? l->p.context : "");
		fail(l, (unsigned)l->p.problem_mark.line + 1, buf);
		return -1;
	}
	return 0;
}

/* Read the node whose first event is ev (consumed). */
static struct ynode *
read_node(struct loader *l, yaml_event_t *ev, int depth)
{
	unsigned line = (unsigned)ev->start_mark.line + 1;
	struct ynode *n, *key = NULL;
	struct hmap seen = HMAP_INIT;	/* a map's keys: one lookup each */
	yaml_event_t e;

	if (depth > MAXDEPTH) {
		fail(l, line, "nested too deeply");
		return NULL;
	}
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		n = node_new(Y_SCALAR, line);
		n->text = estrndup((char *)ev->data.scalar.value,
		    ev->data.scalar.length);
		n->quoted = ev->data.scalar.style !=
		    YAML_PLAIN_SCALAR_STYLE;
		if (ev->data.scalar.anchor != NULL) {
			fail(l, line, "anchors are not supported");
			ytree_free(n);
			return NULL;
		}
		return n;
	case YAML_ALIAS_EVENT:
		fail(l, line, "aliases are not supported");
		return NULL;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		n = node_new(ev->type == YAML_SEQUENCE_START_EVENT ? Y_SEQ :
		    Y_MAP, line);
		for (;;) {
			struct ynode *kid;

			int isnew;

			if (next_event(l, &e) < 0)
				goto bad;
			if (e.type == YAML_SEQUENCE_END_EVENT ||
			    e.type == YAML_MAPPING_END_EVENT) {
				yaml_event_delete(&e);
				break;
			}
			kid = read_node(l, &e, depth + 1);
			yaml_event_delete(&e);
			if (kid == NULL)
				goto bad;
			if (n->type == Y_SEQ) {
				push(n, NULL, kid);
			} else if (key == NULL) {
				if (kid->type != Y_SCALAR) {
					fail(l, kid->line, "a key must be a "
					    "plain value");
					ytree_free(kid);
					goto bad;
				}
				/*
				 * A hash, not ytree_get(): a map of 100,000
				 * keys took minutes of string compares.
				 */
				hmap_put(&seen, kid->text, strlen(kid->text),
				    &isnew);
				if (!isnew) {
					char buf[160];

					snprintf(buf, sizeof(buf), "'%.100s': "
					    "key given twice", kid->text);
					fail(l, kid->line, buf);
					ytree_free(kid);
					goto bad;
				}
				key = kid;
			} else {
				push(n, key, kid);
				key = NULL;
			}
		}
		hmap_release(&seen, NULL);
		return n;
bad:
		hmap_release(&seen, NULL);
		ytree_free(key);
		ytree_free(n);
		return NULL;
	default:
		fail(l, line, "unexpected YAML event");
		return NULL;
	}
}

struct ynode *
ytree_load(const char *path, char *err, size_t errlen)
{
	struct loader l;
	struct ynode *root = NULL;
	yaml_event_t ev;
	FILE *f;
	int done = 0;

	memset(&l, 0, sizeof(l));
	l.path = path;
	l.err = err;
	l.errlen = errlen;
	f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (f == NULL) {
		snprintf(err, errlen, "%s: cannot open: %s", path,
		    strerror(errno));
		return NULL;
	}
	yaml_parser_initialize(&l.p);
	yaml_parser_set_input_file(&l.p, f);
	while (!done && !l.failed) {
		if (next_event(&l, &ev) < 0)
			break;
		switch (ev.type) {
		case YAML_STREAM_START_EVENT:
		case YAML_DOCUMENT_START_EVENT:
		case YAML_DOCUMENT_END_EVENT:
			break;
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		default:
			if (root != NULL) {
				fail(&l, (unsigned)ev.start_mark.line + 1,
				    "more than one document");
				break;
			}
			root = read_node(&l, &ev, 0);
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&l.p);
	if (f != stdin)
		fclose(f);
	if (l.failed) {
		ytree_free(root);
		return NULL;
	}
	if (root == NULL)
		root = node_new(Y_MAP, 1);
	return root;
}

void
ytree_free(struct ynode *n)
{
	size_t i;

	if (n == NULL)
		return;
	for (i = 0; i < n->n; i++) {
		if (n->keys != NULL)
			ytree_free(n->keys[i]);
		ytree_free(n->kids[i]);
	}
	free(n->keys);
	free(n->kids);
	free(n->text);
	free(n);
}

struct ynode *
ytree_get(const struct ynode *m, const char *key)
{
	size_t i;

	if (m == NULL || m->type != Y_MAP)
		return NULL;
	for (i = 0; i < m->n; i++)
		if (strcmp(m->keys[i]->text, key) == 0)
			return m->kids[i];
	return NULL;
}
