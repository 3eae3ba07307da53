/* SPDX-License-Identifier: ISC */
/* Unit tests: GPU device names and cgroups (formats/record/holders.c). */
#include <stdio.h>
#include <string.h>

#include "holders.h"
#include "test.h"

int
main(void)
{
	char cg[64], id[HOLDERS_IDSZ];

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
	TEST_END("holders");
}
