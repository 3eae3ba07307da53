/* SPDX-License-Identifier: ISC */
/*
 * maxrss.c: run a command with its stdout sent to a file and print its
 * peak resident set size in KiB (for the "memory does not grow with input"
 * tests; nothing here is timed).
 *
 *	maxrss OUTFILE COMMAND [ARGS...]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	struct rusage ru;
	pid_t pid;
	int status, fd;

	if (argc < 3) {
		fprintf(stderr, "usage: maxrss OUTFILE COMMAND [ARGS...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 2;
	}
	if (pid == 0) {
		fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd < 0 || dup2(fd, 1) < 0) {
			perror(argv[1]);
			_exit(127);
		}
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("wait4");
		return 2;
	}
	printf("%ld\n", ru.ru_maxrss);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
