/* SPDX-License-Identifier: ISC */
/*
 * gpumem.c: the front, "gpumem VERB ARGS" runs gpumem-VERB ARGS, git-style:
 * from the directory of this program first, then from PATH.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "util.h"

/*
 * The commands, each with its man page's one-line description: the
 * Makefile writes cmdlist.h from the tree (a top-level .c of formats/,
 * analyze/ or reports/ and its .1), so the list exists once.
 */
static const struct {
	const char *verb;
	const char *what;
} verbs[] = {
#include "cmdlist.h"
};

static char selfdir[PATH_MAX];

/*
 * The edit distance of a and b (insertions, deletions, substitutions and
 * swaps of two neighbours, as git's help.autocorrect counts them), for
 * names of at most 32 letters.
 */
static int
distance(const char *a, const char *b)
{
	int d[34][34], i, j, m = (int)strlen(a), n = (int)strlen(b), c;

	if (m > 32 || n > 32)
		return 99;
	for (i = 0; i <= m; i++)
		d[i][0] = i;
	for (j = 0; j <= n; j++)
		d[0][j] = j;
	for (i = 1; i <= m; i++)
		for (j = 1; j <= n; j++) {
			c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < c)
				c = d[i - 2][j - 2] + 1;
			d[i][j] = c;
		}
	return d[m][n];
}

/*
 * Not a verb: say so, and which verbs are near it ("taks": tasks), the
 * way git does; exit 2.
 */
static void
not_a_verb(const char *verb)
{
	enum { NVERBS = sizeof(verbs) / sizeof(verbs[0]) };
	char safe[64];
	int d[NVERBS], best = 3, near = 0;
	size_t i;

	text_clean(verb, 32, safe, sizeof(safe));
	for (i = 0; i < NVERBS; i++) {
		d[i] = distance(verb, verbs[i].verb);
		if (d[i] < best) {
			best = d[i];
			near = 0;
		}
		if (d[i] == best)
			near++;
	}
	msg("'%s' is not a gpumem verb (see gpumem --help)", safe);
	if (best <= 2) {
		fprintf(stderr, "\nThe most similar verb%s:\n", near > 1 ?
		    "s are" : " is");
		for (i = 0; i < NVERBS; i++)
			if (d[i] == best)
				fprintf(stderr, "\t%s\n", verbs[i].verb);
	}
	exit(EXIT_TROUBLE);
}

static void
find_selfdir(const char *argv0)
{
	char buf[PATH_MAX];
	ssize_t n;
	char *slash;

	n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n > 0)
		buf[n] = '\0';
	else if (strchr(argv0, '/') != NULL && strlen(argv0) < sizeof(buf))
		strcpy(buf, argv0);
	else
		return;
	slash = strrchr(buf, '/');
	if (slash == NULL)
		return;
	*slash = '\0';
	snprintf(selfdir, sizeof(selfdir), "%s", buf);
}

/* The path of gpumem-verb beside us, or NULL when it is not there. */
static const char *
beside(const char *verb, char *buf, size_t cap)
{
	if (selfdir[0] == '\0')
		return NULL;
	if ((size_t)snprintf(buf, cap, "%s/gpumem-%s", selfdir, verb) >= cap)
		return NULL;
	return access(buf, X_OK) == 0 ? buf : NULL;
}

/* Whether gpumem-verb is beside us or on PATH. */
static int
available(const char *verb)
{
	char buf[PATH_MAX], name[64];
	const char *path = getenv("PATH"), *p;

	if (beside(verb, buf, sizeof(buf)) != NULL)
		return 1;
	snprintf(name, sizeof(name), "gpumem-%s", verb);
	for (p = path; p != NULL && *p != '\0';) {
		size_t n = strcspn(p, ":");

		if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, name) <
		    (int)sizeof(buf) && access(buf, X_OK) == 0)
			return 1;
		p += n;
		if (*p == ':')
			p++;
	}
	return 0;
}

static void
usage(FILE *f, int status)
{
	size_t i;

	fprintf(f, "usage: gpumem VERB [ARGS ...]\n"
	    "       gpumem help VERB\n");
	if (status != EXIT_OK) {
		fprintf(f, "Try 'gpumem --help' for more information.\n");
		exit(status);
	}
	fprintf(f, "\nGPU memory telemetry, from recorded logs and captures "
	    "to usage curves,\nrelease delays, leaks, charts and CI "
	    "verdicts.  Each verb is a program of its\nown, gpumem-VERB, "
	    "with its own --help and man page.\n\n");
	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (available(verbs[i].verb))
			fprintf(f, "  %-7s %s\n", verbs[i].verb, verbs[i].what);
	fprintf(f, "\nExample: gpumem read cap.pcap.gz | gpumem tasks | "
	    "gpumem gantt -o g.svg\n\n"
	    "Exit status: 0 success, 1 a check said no, 2 trouble.\n");
	exit(outfile_close_stdout());
}

static void
run(const char *verb, int argc, char *argv[])
{
	char path[PATH_MAX], name[64];
	const char *p;
	const char *s;

	for (s = verb; *s != '\0'; s++)
		if ((*s < 'a' || *s > 'z') && *s != '-')
			break;
	if (*s != '\0' || strlen(verb) > 32 || *verb == '\0')
		not_a_verb(verb);
	snprintf(name, sizeof(name), "gpumem-%s", verb);
	argv[0] = name;
	(void)argc;
	p = beside(verb, path, sizeof(path));
	if (p != NULL)
		execv(p, argv);
	execvp(name, argv);
	if (errno == ENOENT)
		not_a_verb(verb);
	die("cannot run %s:", name);
}

int
main(int argc, char *argv[])
{
	cmd_stdfds();
	util_init(argv[0]);
	find_selfdir(argv[0]);
	if (argc < 2)
		usage(stderr, EXIT_TROUBLE);
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
		usage(stdout, EXIT_OK);
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0)
		msg_print_version();
	if (strcmp(argv[1], "help") == 0) {
		static char help[] = "--help";
		char *args[3];

		if (argc < 3)
			usage(stdout, EXIT_OK);
		args[0] = argv[2];
		args[1] = help;
		args[2] = NULL;
		run(argv[2], 2, args);
	}
	if (argv[1][0] == '-')
		usage(stderr, EXIT_TROUBLE);
	run(argv[1], argc - 1, argv + 1);
	return EXIT_TROUBLE;
}
