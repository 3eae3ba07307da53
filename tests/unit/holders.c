/* SPDX-License-Identifier: ISC */
/* Unit tests: GPU device names and cgroups (formats/record/holders.c). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "holders.h"
#include "test.h"

/* The rows of one scan for glob, skipping skip (0: none). */
static size_t
rows(const char *glob, pid_t skip, char *out, size_t n)
{
	FILE *f = tmpfile();
	struct holders *h = holders_new(glob, f, &skip, skip != 0);
	size_t got, r;

	holders_scan(h, 42);
	r = holders_rows(h);

	rewind(f);
	got = fread(out, 1, n - 1, f);
	out[got] = '\0';
	fclose(f);
	holders_free(h);
	return r;
}

int
main(void)
{
	char cg[64], id[HOLDERS_IDSZ], dir[512], glob[600], want[700];
	char out[4096];
	int fd;

	/* The GPUs' device files, and only those. */
	CHECK(holders_gpu_device("/dev/nvidia0") == 0);
	CHECK(holders_gpu_device("/dev/nvidia13") == 13);
	CHECK(holders_gpu_device("/dev/nvidiactl") == -1);
	CHECK(holders_gpu_device("/dev/nvidia-uvm") == -1);
	CHECK(holders_gpu_device("/dev/nvidia-caps/nvidia-cap1") == -1);
	CHECK(holders_gpu_device("/dev/nvidia") == -1);
	CHECK(holders_gpu_device("/dev/nvidia0x") == -1);
	CHECK(holders_gpu_device("/tmp/dev/nvidia0") == -1);

	/* cgroup v2: the path; a docker id cut to 12 digits, alone too. */
	holders_cgroup("0::/system.slice/docker-"
	    "4f3c2b1a09876543210fedcba9876543210fedcba9876543210fedcba9876543"
	    ".scope", cg, sizeof(cg), id);
	CHECK_STR(cg, "/system.slice/docker-4f3c2b1a0987.scope");
	CHECK_STR(id, "4f3c2b1a0987");
	/* cgroup v1's first line; no container. */
	holders_cgroup("12:pids:/user.slice/user-1000.slice", cg, sizeof(cg),
	    id);
	CHECK_STR(cg, "/user.slice/user-1000.slice");
	CHECK_STR(id, "");
	/* A run of 63 or 65 digits is no container id. */
	holders_cgroup("0::/kubepods/pod1/"
	    "4f3c2b1a09876543210fedcba9876543210fedcba9876543210fedcba987654",
	    cg, sizeof(cg), id);
	CHECK_STR(id, "");
	/* Cut at the buffer, terminated. */
	holders_cgroup("0::/a/very/long/path/that/goes/on", cg, 8, id);
	CHECK_STR(cg, "/a/very");

	/*
	 * A stand-in GPU 3 this process holds open: one row, named after
	 * us; none when we are skipped (record's own loops).
	 */
	CHECK(getcwd(dir, sizeof(dir)) != NULL);
	fd = open("standin-nvidia3", O_RDONLY | O_CREAT, 0600);
	CHECK(fd >= 0);
	snprintf(glob, sizeof(glob), "%s/standin-nvidia[0-9]*", dir);
	CHECK(rows(glob, 0, out, sizeof(out)) == 1);
	snprintf(want, sizeof(want), ",3,%ld,", (long)getpid());
	CHECK(strstr(out, want) != NULL);
	CHECK(strncmp(out, "time_ns,gpu,pid,name,cgroup,container\n42,", 41) == 0);
	CHECK(rows(glob, getpid(), out, sizeof(out)) == 0);
	close(fd);
	unlink("standin-nvidia3");
	TEST_END("holders");
}
