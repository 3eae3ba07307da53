/* SPDX-License-Identifier: ISC */
/*
 * colmapstate.h: a column map (colmap.h) as its two halves share it:
 * colmap.c reads the map (inline, YAML, shipped), colmapread.c reads a
 * CSV log's rows through it.  Private to them.
 */
#ifndef GPUMEM_COLMAPSTATE_H
#define GPUMEM_COLMAPSTATE_H

enum key {
	K_TS, K_GPU, K_UUID, K_BUS, K_HOST, K_PID, K_PNAME,
	K_USED, K_FREE, K_TOTAL, NKEY
};

enum tkind {
	T_AUTO, T_S, T_MS, T_US, T_NS, T_ISO, T_NVSMI, T_CLOCK, T_ELAPSED,
	T_STRP
};

struct mapcol {
	char *column;		/* as the map names it; NULL: not mapped */
	int optional;
	double unit;		/* memory: bytes per unit */
	enum tkind tkind;	/* timestamp */
	char *tfmt;		/* T_STRP: the strptime format */
};

struct colmap {
	struct mapcol c[NKEY];
	char delim;
	char *what;
};

/* The keys as a map names them, by enum key. */
extern const char *const colmap_keynames[NKEY];

/* The time forms a timestamp's spec names, by enum tkind (not T_STRP). */
struct colmap_tkind {
	const char *name;
	enum tkind kind;
};
extern const struct colmap_tkind colmap_tkinds[];

#endif
