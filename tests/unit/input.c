/* SPDX-License-Identifier: ISC */
/*
 * Unit tests: plain and gzip input, lines (formats/core/input.c).  The files
 * they write go into a temporary directory of their own, removed at the
 * end: never into the directory the program is started from.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "input.h"
#include "test.h"

static void
write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	fwrite(p, 1, n, f);
	fclose(f);
}

static void
write_gz(const char *path, const char *s)
{
	gzFile z = gzopen(path, "wb");

	gzwrite(z, s, (unsigned)strlen(s));
	gzclose(z);
}

/* Make a temporary directory and work in it; its path goes into dir. */
static void
enter_tmpdir(char *dir, size_t size)
{
	const char *base = getenv("TMPDIR");

	snprintf(dir, size, "%s/gpumem-input.XXXXXX",
	    base != NULL && *base != '\0' ? base : "/tmp");
	if (mkdtemp(dir) == NULL || chdir(dir) < 0) {
		perror(dir);
		exit(2);
	}
}

/* Remove the files written into dir (no subdirectories), then dir. */
static void
leave_tmpdir(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(".");

	while (d != NULL && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlink(e->d_name);
	if (d != NULL)
		closedir(d);
	if (chdir("/") < 0 || rmdir(dir) < 0)
		perror(dir);
}

/* All lines of path joined with '|', or an error marker. */
static const char *
lines(const char *path, int *rc_end)
{
	static char out[1 << 16];
	struct input *in = input_open(path);
	char *line;
	size_t len;
	int rc;

	out[0] = '\0';
	if (in == NULL)
		return "(open failed)";
	while ((rc = input_getline(in, &line, &len)) == 1 || rc == 2) {
		if (rc == 2)
			strcat(out, "<long>");
		else
			strncat(out, line, len);
		strcat(out, "|");
	}
	*rc_end = rc;
	input_close(in);
	return out;
}

/*
 * UTF-16 decoding at its edges: a surrogate pair split across the layer's
 * reads (at 64 KiB), an unpaired surrogate and an odd last byte (U+FFFD),
 * a BOM in the middle of the text (files joined with cat) dropped at a
 * line's start, and NUL bytes before a line counted.
 */
static void
test_utf16(void)
{
	static unsigned char big[70000];
	struct input *in;
	char *line;
	size_t len, i = 0;
	int rc;

	/* "a\n" then x's up to the pair at bytes 65534..65537, "\n". */
	big[i++] = 0xff;
	big[i++] = 0xfe;
	big[i++] = 'a';
	big[i++] = 0;
	big[i++] = '\n';
	big[i++] = 0;
	while (i < 65534) {
		big[i++] = 'x';
		big[i++] = 0;
	}
	/* U+1F600 is d83d de00; the BOM is there for the layer only. */
	big[i++] = 0x3d;
	big[i++] = 0xd8;
	big[i++] = 0x00;
	big[i++] = 0xde;
	big[i++] = '\n';
	big[i++] = 0;
	write_file("big16.txt", big, i);
	in = input_open("big16.txt");
	CHECK(input_getline(in, &line, &len) == 1);
	CHECK_STR(line, "a");
	CHECK(input_getline(in, &line, &len) == 1);
	CHECK_U64(len, (65534 - 6) / 2 + 4);
	CHECK(len >= 4 && memcmp(line + len - 4, "\xf0\x9f\x98\x80", 4) == 0);
	CHECK(input_getline(in, &line, &len) == 0);
	CHECK_STR(input_encoding(in), "UTF-16LE");
	input_close(in);

	/*
	 * BE without a BOM (told by nine in ten pairs): a lone low
	 * surrogate, a BOM not at a line's start kept, one at a line's
	 * start dropped, an odd last byte.
	 */
	write_file("be.txt", "\0a\0b\0c\0d\0e\0f\0g\0h\0a\0b\0c\0d\0e\0f"
	    "\0g\0h\0a\0b\0c\0d\0e\0f\0g\0h\0a\0b\0c\0d\0e\0f\0g\0h\0\n"
	    "\xdc\0\xfe\xff\0i\0\n\xfe\xff\0j\0\n\0", 81);
	CHECK_STR(lines("be.txt", &rc), "abcdefghabcdefghabcdefghabcdefgh|\xef\xbf\xbd\xef\xbb\xbf"
	    "i|j|\xef\xbf\xbd|");

	/* NUL bytes before lines: counted; a UTF-8 BOM after them dropped. */
	write_file("nul.txt", "\0\0\0a\nb\n\0\0\xef\xbb\xbf" "c\n", 13);
	in = input_open("nul.txt");
	CHECK(input_getline(in, &line, &len) == 1);
	CHECK_STR(line, "a");
	CHECK_U64(input_line_nuls(in), 3);
	CHECK(input_getline(in, &line, &len) == 1);
	CHECK_U64(input_line_nuls(in), 0);
	CHECK(input_getline(in, &line, &len) == 1);
	CHECK_STR(line, "c");
	CHECK_U64(input_line_nuls(in), 2);
	CHECK(input_encoding(in) == NULL);
	input_close(in);
}

/* The wait hook's state: the pipe to feed, and what to answer. */
static struct {
	int fd;			/* write end */
	const char *feed;	/* written when called, then NULL */
	int stop;
	int calls;
} hook;

static int
on_wait(void *arg)
{
	(void)arg;
	hook.calls++;
	if (hook.feed != NULL) {
		if (write(hook.fd, hook.feed, strlen(hook.feed)) < 0)
			return 1;
		hook.feed = NULL;
	}
	return hook.stop;
}

/*
 * A live input (a pipe): lines come as soon as they are complete, the
 * hook is asked before a read that would wait, and its "stop" ends the
 * input; input_peek_more takes what has come, waiting only for more.
 */
static void
test_live(void)
{
	struct input *in;
	const unsigned char *p;
	char path[64], *line;
	size_t len, n;
	int fd[2];

	if (pipe(fd) < 0) {
		CHECK(0);
		return;
	}
	hook.fd = fd[1];
	input_set_wait_hook(on_wait, NULL);
	if (write(fd[1], "abc\nd", 5) != 5)
		CHECK(0);
	snprintf(path, sizeof(path), "/dev/fd/%d", fd[0]);
	in = input_open(path);
	CHECK(in != NULL);
	if (in == NULL)
		return;
	CHECK(!input_is_file(in));
	/* What came with the open is there without waiting. */
	n = input_peek_more(in, &p, 0);
	CHECK_U64(n, 5);
	CHECK_U64(hook.calls, 0);
	/* Asking for more than that waits: the hook feeds the pipe. */
	hook.feed = "e\n";
	n = input_peek_more(in, &p, 5);
	CHECK_U64(n, 7);
	CHECK(memcmp(p, "abc\nde\n", 7) == 0);
	CHECK_U64(hook.calls, 1);
	/* Complete lines come without a read, so without the hook. */
	CHECK(input_getline(in, &line, &len) == 1 && strcmp(line, "abc") == 0);
	CHECK(input_getline(in, &line, &len) == 1 && strcmp(line, "de") == 0);
	CHECK_U64(hook.calls, 1);
	/* A partial line waits: the hook is asked first. */
	hook.feed = "f\n";
	CHECK(input_getline(in, &line, &len) == 1 && strcmp(line, "f") == 0);
	CHECK_U64(hook.calls, 2);
	/* The hook says stop: the input ends there, its last line too. */
	if (write(fd[1], "gh", 2) != 2)
		CHECK(0);
	hook.stop = 1;
	CHECK(input_getline(in, &line, &len) == 1 && strcmp(line, "gh") == 0);
	CHECK(input_getline(in, &line, &len) == 0);
	CHECK_U64(hook.calls, 3);
	input_close(in);
	close(fd[0]);
	close(fd[1]);

	/* A regular file never waits: no hook. */
	write_file("live.txt", "x\ny", 3);
	in = input_open("live.txt");
	CHECK(input_is_file(in));
	CHECK(input_getline(in, &line, &len) == 1 && strcmp(line, "x") == 0);
	CHECK(input_getline(in, &line, &len) == 1 && strcmp(line, "y") == 0);
	CHECK(input_getline(in, &line, &len) == 0);
	CHECK_U64(hook.calls, 3);
	input_close(in);
	input_set_wait_hook(NULL, NULL);

	/* input_end_all(): the next read finds the end (for good: last). */
	if (pipe(fd) < 0) {
		CHECK(0);
		return;
	}
	if (write(fd[1], "i\nj", 3) != 3)
		CHECK(0);
	snprintf(path, sizeof(path), "/dev/fd/%d", fd[0]);
	in = input_open(path);
	input_end_all();
	CHECK(input_getline(in, &line, &len) == 1 && strcmp(line, "i") == 0);
	CHECK(input_getline(in, &line, &len) == 1 && strcmp(line, "j") == 0);
	CHECK(input_getline(in, &line, &len) == 0);
	input_close(in);
	close(fd[0]);
	close(fd[1]);
}

int
main(void)
{
	const unsigned char *p;
	struct input *in;
	char *big, *buf;
	size_t n, i;
	int rc;
	char dir[4096];

	enter_tmpdir(dir, sizeof(dir));
	write_file("plain.txt", "a\r\nbb\n\nccc", 10);
	CHECK_STR(lines("plain.txt", &rc), "a|bb||ccc|");
	CHECK(rc == 0);

	/* Only the last line, "ccc", ended with the data. */
	in = input_open("plain.txt");
	{
		char *l;
		size_t len;
		int k = 0;

		while (input_getline(in, &l, &len) == 1)
			CHECK(input_unterminated(in) == (++k == 4));
		CHECK(k == 4);
	}
	input_close(in);

	write_gz("z.gz", "a\r\nbb\n\nccc");
	CHECK_STR(lines("z.gz", &rc), "a|bb||ccc|");
	CHECK(rc == 0);

	/* Two gzip members read as one stream. */
	{
		FILE *f = fopen("two.gz", "wb"), *g;
		char tmp[256];

		write_gz("m1.gz", "one\n");
		write_gz("m2.gz", "two\n");
		g = fopen("m1.gz", "rb");
		n = fread(tmp, 1, sizeof(tmp), g);
		fwrite(tmp, 1, n, f);
		fclose(g);
		g = fopen("m2.gz", "rb");
		n = fread(tmp, 1, sizeof(tmp), g);
		fwrite(tmp, 1, n, f);
		fclose(g);
		fclose(f);
	}
	CHECK_STR(lines("two.gz", &rc), "one|two|");
	CHECK(rc == 0);

	/* A truncated gzip: what was decoded, then an error. */
	{
		gzFile z = gzopen("big.gz", "wb");
		FILE *f;
		long size;

		for (i = 0; i < 20000; i++)
			gzprintf(z, "line %zu\n", i);
		gzclose(z);
		f = fopen("big.gz", "rb");
		fseek(f, 0, SEEK_END);
		size = ftell(f);
		rewind(f);
		buf = malloc((size_t)size);
		n = fread(buf, 1, (size_t)size, f);
		fclose(f);
		write_file("cut.gz", buf, n / 2);
		free(buf);
	}
	in = input_open("cut.gz");
	CHECK(in != NULL);
	{
		char *line;
		size_t len;
		uint64_t count = 0;

		while ((rc = input_getline(in, &line, &len)) == 1)
			count++;
		CHECK(rc == -1);
		CHECK(count > 1000 && count < 20000);
		CHECK(input_failed(in));
		CHECK(strstr(input_error(in), "unexpected end of gzip data") !=
		    NULL);
	}
	input_close(in);

	/* A line longer than the limit is skipped; the next is read. */
	big = malloc(INPUT_MAXLINE + 100);
	memset(big, 'x', INPUT_MAXLINE + 10);
	memcpy(big + INPUT_MAXLINE + 10, "\nnext\n", 6);
	write_file("long.txt", big, INPUT_MAXLINE + 16);
	free(big);
	CHECK_STR(lines("long.txt", &rc), "<long>|next|");

	/*
	 * Peek does not consume.  Less than asked for at the end is no
	 * failure: input_failed() tells the end from an error.
	 */
	write_file("peek.txt", "hello\nworld\n", 12);
	in = input_open("peek.txt");
	CHECK_U64(input_peek(in, &p, 100), 12);
	CHECK(!input_failed(in));
	n = input_peek(in, &p, 5);
	CHECK_U64(n, 5);
	CHECK(memcmp(p, "hello", 5) == 0);
	{
		char *line;
		size_t len;

		CHECK(input_getline(in, &line, &len) == 1);
		CHECK_STR(line, "hello");
		CHECK_U64(input_lineno(in), 1);
	}
	input_close(in);

	/*
	 * Standard input peeked at, closed and opened again: nothing read
	 * ahead is lost (gpumem check sniffs stdin, then the reader opens
	 * it), plain and gzip-compressed.
	 */
	{
		static const char *const files[] = {"plain.txt", "z.gz"};
		int saved = dup(STDIN_FILENO);

		for (i = 0; i < 2; i++) {
			int fd = open(files[i], O_RDONLY);

			dup2(fd, STDIN_FILENO);
			close(fd);
			in = input_open("-");
			n = input_peek(in, &p, 3);
			CHECK_U64(n, 3);
			CHECK(memcmp(p, "a\r\n", 3) == 0);
			input_close(in);
			CHECK_STR(lines("-", &rc), "a|bb||ccc|");
			CHECK(rc == 0);
			/* Read to the end: opening it again finds the end. */
			CHECK_STR(lines("-", &rc), "");
		}
		dup2(saved, STDIN_FILENO);
		close(saved);
	}

	CHECK(input_open("does-not-exist") == NULL);
	CHECK(input_open(".") == NULL);
	test_utf16();
	test_live();	/* last: it ends every input (input_end_all) */
	leave_tmpdir(dir);
	TEST_END("input");
}
