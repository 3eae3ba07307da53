/* SPDX-License-Identifier: ISC */
/*
 * ytree.h: a YAML document (read with libyaml) as a small tree whose every
 * node knows its line, so that configuration errors can name the file,
 * the line and the key.
 *
 * Anchors and aliases are refused (a configuration has no use for them and
 * they make "billion laughs" documents possible); so are documents deeper
 * than 32 levels.  Scalars keep their text; the caller converts them.
 */
#ifndef GPUMEM_YTREE_H
#define GPUMEM_YTREE_H

#include <stddef.h>
#include <stdint.h>

enum ynode_type { Y_SCALAR, Y_MAP, Y_SEQ };

struct ynode {
	enum ynode_type type;
	unsigned line;		/* 1-based */
	char *text;		/* Y_SCALAR: its value */
	int quoted;		/* Y_SCALAR: was written in quotes */
	/* Y_MAP: keys[i] -> kids[i]; Y_SEQ: kids[i]. */
	struct ynode **keys;
	struct ynode **kids;
	size_t n;
};

/*
 * Load path ("-" for stdin).  Return the root (NULL for an empty
 * document is returned as an empty map), or NULL with a message in
 * err[0..errlen) ("file:line: what").
 */
struct ynode *ytree_load(const char *path, char *err, size_t errlen);
void ytree_free(struct ynode *n);

/* The value of key in map m, or NULL. */
struct ynode *ytree_get(const struct ynode *m, const char *key);

#endif
