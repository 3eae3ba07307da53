/* SPDX-License-Identifier: ISC */
/*
 * replay.c: the plain main of a fuzz target, built without libFuzzer:
 * feed it each FILE, and each regular file of each DIR (in name order),
 * as libFuzzer would, once.  The test suite replays every seed and every
 * kept find this way, in the normal and the ASan+UBSan builds, so no find
 * comes back unnoticed and no clang is needed for it.  (libpcap's
 * testprogs/fuzz/onefile.c and zstd's tests/fuzz/regression_driver.c do
 * the same.)
 *
 *	fuzz_NAME FILE|DIR...
 *
 * Prints "NAME: N inputs replayed" and exits 0; a crash is a crash.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static unsigned long nrun;

static void
replay_file(const char *path)
{
	unsigned char *buf = NULL;
	size_t n = 0, cap = 0, k;
	FILE *f;

	if ((f = fopen(path, "rb")) == NULL) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	for (;;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 65536;
			if ((buf = realloc(buf, cap)) == NULL) {
				fprintf(stderr, "replay: out of memory\n");
				exit(2);
			}
		}
		k = fread(buf + n, 1, cap - n, f);
		if (k == 0)
			break;
		n += k;
	}
	if (ferror(f)) {
		fprintf(stderr, "replay: %s: read error\n", path);
		exit(2);
	}
	fclose(f);
	/* An exact-size copy, so that ASan sees a read one byte too far. */
	{
		unsigned char *exact = malloc(n > 0 ? n : 1);

		if (exact == NULL) {
			fprintf(stderr, "replay: out of memory\n");
			exit(2);
		}
		memcpy(exact, buf, n);
		free(buf);
		LLVMFuzzerTestOneInput(exact, n);
		free(exact);
	}
	nrun++;
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
replay_dir(const char *dir)
{
	struct dirent *d;
	char **names = NULL, path[4096];
	size_t n = 0, i;
	struct stat st;
	DIR *dp;

	if ((dp = opendir(dir)) == NULL) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		exit(2);
	}
	while ((d = readdir(dp)) != NULL) {
		if (d->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (names == NULL || (names[n] = strdup(d->d_name)) == NULL) {
			fprintf(stderr, "replay: out of memory\n");
			exit(2);
		}
		n++;
	}
	closedir(dp);
	if (n > 1)
		qsort(names, n, sizeof(*names), cmpstr);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			replay_file(path);
		free(names[i]);
	}
	free(names);
}

int
main(int argc, char *argv[])
{
	const char *name = strrchr(argv[0], '/');
	struct stat st;
	int i;

	name = name != NULL ? name + 1 : argv[0];
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", name);
		return 2;
	}
	LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st) < 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i],
			    strerror(errno));
			return 2;
		}
		if (S_ISDIR(st.st_mode))
			replay_dir(argv[i]);
		else
			replay_file(argv[i]);
	}
	printf("%s: %lu inputs replayed\n", name, nrun);
	return 0;
}
