/* SPDX-License-Identifier: ISC */
/* cmd.c: the skeleton of every gpumem command (see cmd.h). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "csv.h"
#include "util.h"

#define HELPCOLS 79		/* lines of --help wrap before this */
#define OPT_COLOR 0x10000	/* above every command's own long options */
#define OPT_SPREADSHEET 0x10001

/* The read options, as getopt_long wants them (readopt.h). */
static const struct option readlong[] = {
	READOPT_LONGOPTS,
	{NULL, 0, NULL, 0}
};

/* The options every command has, listed after its own. */
static const struct cmd_opt common[] = {
	{'q', "quiet", NULL, "print only problems on stderr"},
	{'v', "verbose", NULL, "say more"},
	{OPT_COLOR, "color", "WHEN", "colour on a terminal: auto (default; not "
	    "with NO_COLOR),\nalways or never"},
	{'h', "help", NULL, "print this help and exit"},
	{'V', "version", NULL, "print the version and exit"},
	{0, NULL, NULL, NULL}
};

static const struct cmd_opt output_opt[] = {
	{'o', "output", "FILE", "write to FILE (replaced only when all went "
	    "well)"},
	{0, NULL, NULL, NULL}
};

static const struct cmd_opt csv_opt[] = {
	{OPT_SPREADSHEET, "spreadsheet", NULL, "CSV for a spreadsheet: a text "
	    "cell that starts with\n= + - @, a tab or a carriage return (a "
	    "formula\nthere) gets a ' before it"},
	{0, NULL, NULL, NULL}
};

void
cmd_stdfds(void)
{
	int fd;

	/*
	 * open() returns the lowest free fd: each closed one of 0, 1, 2 in
	 * turn.  If /dev/null cannot be opened there is no one to tell.
	 */
	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) == -1 && errno == EBADF &&
		    open("/dev/null", O_RDWR) < 0)
			_exit(EXIT_TROUBLE);
}

static int
is_short(int val)
{
	return val > 0 && val < 128 && ((val >= 'a' && val <= 'z') ||
	    (val >= 'A' && val <= 'Z') || (val >= '0' && val <= '9'));
}

static size_t
count(const struct cmd_opt *o)
{
	size_t n = 0;

	while (o != NULL && o[n].val != 0)
		n++;
	return n;
}

/*
 * Whether a common option is declared by the command itself (its own
 * text in --help, "-o DIR"): then it is not added a second time.
 */
static int
declared(const struct cmd_opt *own, const struct cmd_opt *o)
{
	for (; own != NULL && own->val != 0; own++)
		if (own->val == o->val)
			return 1;
	return 0;
}

/* Append the options of o to the getopt tables. */
static void
add_opts(const struct cmd_opt *own, const struct cmd_opt *o,
    struct option *lo, size_t *nlo, struct sbuf *so)
{
	for (; o != NULL && o->val != 0; o++) {
		if (declared(own, o))
			continue;
		lo[*nlo].name = o->name;
		lo[*nlo].has_arg = o->arg != NULL ? required_argument :
		    no_argument;
		lo[*nlo].flag = NULL;
		lo[*nlo].val = o->val;
		(*nlo)++;
		if (is_short(o->val)) {
			sbuf_addc(so, (char)o->val);
			if (o->arg != NULL)
				sbuf_addc(so, ':');
		}
	}
}

/* The columns of s[0, len): its UTF-8 characters. */
static size_t
help_cols(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	return n;
}

/*
 * Text of --help, s, written from column col, its further lines under
 * indent: its lines as the table has them when they fit HELPCOLS, else
 * (whatever a table says, --help fits 80 columns) all of it as one
 * paragraph wrapped at its blanks, only at those before a '[' when
 * synopsis is set (a word longer than the room stays whole).
 */
static void
put_text(FILE *f, const char *s, size_t col, size_t indent, int synopsis)
{
	struct sbuf sb = SBUF_INIT;
	const char *p, *nl;
	size_t c = col, i, cut, len;

	for (p = s; (nl = strchr(p, '\n')) != NULL; p = nl + 1, c = indent)
		if (c + help_cols(p, (size_t)(nl - p)) > HELPCOLS)
			break;
	if (nl == NULL && c + help_cols(p, strlen(p)) <= HELPCOLS) {
		for (p = s; (nl = strchr(p, '\n')) != NULL; p = nl + 1)
			fprintf(f, "%.*s\n%*s", (int)(nl - p), p, (int)indent,
			    "");
		fputs(p, f);
		return;
	}
	for (p = s; *p != '\0'; p++)
		sbuf_addc(&sb, *p == '\n' ? ' ' : *p);
	p = sb.buf;
	len = sb.len;
	while (col + help_cols(p, len) > HELPCOLS) {
		cut = 0;
		for (i = 1; i < len && col + help_cols(p, i) <= HELPCOLS; i++)
			if (p[i] == ' ' && (!synopsis || p[i + 1] == '['))
				cut = i;
		if (cut == 0)
			break;
		fprintf(f, "%.*s\n%*s", (int)cut, p, (int)indent, "");
		p += cut + 1;
		len -= cut + 1;
		col = indent;
	}
	fprintf(f, "%.*s", (int)len, p);
	sbuf_release(&sb);
}

/* "  -o, --output FILE": the left part of an option's help line. */
static void
opt_left(const struct cmd_opt *o, struct sbuf *sb)
{
	if (is_short(o->val))
		sbuf_printf(sb, "  -%c, --%s", o->val, o->name);
	else
		sbuf_printf(sb, "      --%s", o->name);
	if (o->arg != NULL)
		sbuf_printf(sb, " %s", o->arg);
}

static size_t
left_width(const struct cmd_opt *o, size_t w)
{
	struct sbuf sb = SBUF_INIT;

	for (; o != NULL && o->val != 0; o++) {
		sb.len = 0;
		opt_left(o, &sb);
		if (sb.len > w)
			w = sb.len;
	}
	sbuf_release(&sb);
	return w;
}

static void
print_opts(FILE *f, const struct cmd_opt *own, const struct cmd_opt *o,
    size_t w)
{
	struct sbuf sb = SBUF_INIT;
	const char *h;

	for (; o != NULL && o->val != 0; o++) {
		if (declared(own, o))
			continue;
		sb.len = 0;
		opt_left(o, &sb);
		h = o->help;
		if (h == NULL) {
			fprintf(f, "%s\n", sb.buf);
			continue;
		}
		fprintf(f, "%-*s ", (int)w, sb.buf);
		put_text(f, h, w + 1, w + 1, 0);
		fputc('\n', f);
	}
	sbuf_release(&sb);
}

/* The read options by name, wrapped: the short form of the tail. */
static void
print_read_names(FILE *f)
{
	const char *head = "Read options (see gpumem read --help):";
	size_t i, col;

	fputs(head, f);
	col = strlen(head);
	for (i = 0; readlong[i].name != NULL; i++) {
		size_t n = strlen(readlong[i].name) + 4;

		if (col + n > HELPCOLS) {
			fputc('\n', f);
			col = 0;
		} else {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "--%s%c", readlong[i].name,
		    readlong[i + 1].name != NULL ? ',' : '.');
		col += n - 1;
	}
	fputc('\n', f);
}

static void
print_synopsis(FILE *f, const struct cmd *c)
{
	fprintf(f, "usage: %s ", progname);
	put_text(f, c->synopsis, strlen(progname) + 8, 7, 1);
	fputc('\n', f);
}

void
cmd_usage(const struct cmd *c, int status)
{
	FILE *f = status == EXIT_OK ? stdout : stderr;
	const struct cmd_opt *out = c->flags & CMD_OUTPUT ? output_opt : NULL;
	const struct cmd_opt *csv = c->flags & CMD_CSV ? csv_opt : NULL;
	size_t w;

	print_synopsis(f, c);
	if (status != EXIT_OK) {
		fprintf(f, "Try '%s --help' for more information.\n",
		    progname);
		exit(status);
	}
	fprintf(f, "\n%s\n\n", c->about);
	w = left_width(common, left_width(csv, left_width(out,
	    left_width(c->opts, 0))));
	print_opts(f, NULL, c->opts, w);
	print_opts(f, c->opts, out, w);
	print_opts(f, c->opts, csv, w);
	print_opts(f, c->opts, common, w);
	if (c->flags & CMD_READHELP)
		fprintf(f, "\nRead options:\n%s", readopt_help);
	else if (c->flags & CMD_READ) {
		fputc('\n', f);
		print_read_names(f);
	}
	fputs("\nExit status: ", f);
	put_text(f, c->exits, 14, 0, 0);	/* 14: the period after */
	fputs(".\n", f);
	exit(outfile_close_stdout());
}

/* The options the skeleton handles itself; 0 when val is not one. */
static int
common_option(struct cmd *c, int val, const char *arg)
{
	switch (val) {
	case 'h':
		cmd_usage(c, EXIT_OK);
	case 'V':
		msg_print_version();
	case 'q':
		verbosity = 0;
		return 1;
	case 'v':
		verbosity = 2;
		return 1;
	case OPT_COLOR:
		if (msg_color_parse(arg) < 0)
			die("--color: '%s': expected auto, always or never",
			    arg);
		msg_color_when = (enum msg_color_when)msg_color_parse(arg);
		return 1;
	case 'o':
		if (!(c->flags & CMD_OUTPUT))
			return 0;
		/* "-o -" is standard output, as "-" is for an input. */
		c->output = strcmp(arg, "-") == 0 ? NULL : arg;
		return 1;
	case OPT_SPREADSHEET:
		if (!(c->flags & CMD_CSV))
			return 0;
		csv_set_spreadsheet(1);
		return 1;
	}
	return 0;
}

/* The shared option sets' turn at an option; 0 when none takes it. */
static int
set_option(struct cmd *c, int val, const char *arg)
{
	size_t i;

	for (i = 0; i < CMD_NSETS; i++)
		if (c->sets[i].parse != NULL &&
		    c->sets[i].parse(c->sets[i].ctx, val, arg))
			return 1;
	return 0;
}

/* The start: the options; the operands left in c->argc and c->argv. */
static void
cmd_start(struct cmd *c, int argc, char *argv[])
{
	struct option *lo;
	struct sbuf so = SBUF_INIT;
	size_t nlo = 0, i;
	int ch;

	cmd_stdfds();
	util_init(argv[0]);
	readopts_init(&c->ro);
	if (c->flags & CMD_LIVEAUTO)
		c->ro.live = LIVE_AUTO;
	c->output = NULL;
	lo = ecalloc(count(c->opts) + 3 + count(common) +
	    sizeof(readlong) / sizeof(readlong[0]), sizeof(*lo));
	if (c->flags & CMD_INORDER)
		sbuf_addc(&so, '+');
	add_opts(NULL, c->opts, lo, &nlo, &so);
	if (c->flags & CMD_OUTPUT)
		add_opts(c->opts, output_opt, lo, &nlo, &so);
	if (c->flags & CMD_CSV)
		add_opts(c->opts, csv_opt, lo, &nlo, &so);
	add_opts(c->opts, common, lo, &nlo, &so);
	if (c->flags & CMD_READ) {
		for (i = 0; readlong[i].name != NULL; i++)
			lo[nlo++] = readlong[i];
		sbuf_adds(&so, "j:");	/* --jobs */
	}
	while ((ch = getopt_long(argc, argv, so.buf, lo, NULL)) != -1) {
		if (c->option != NULL && c->option(c->ctx, ch, optarg))
			continue;
		if (set_option(c, ch, optarg))
			continue;
		if (common_option(c, ch, optarg))
			continue;
		if ((c->flags & CMD_READ) && readopt_parse(&c->ro, ch, optarg))
			continue;
		cmd_usage(c, EXIT_TROUBLE);
	}
	free(lo);
	sbuf_release(&so);
	/* Per-input summaries: read's own output unless -q, else with -v. */
	c->ro.summaries = verbosity >= (c->flags & CMD_SUMMARIES ? 1 : 2);
	c->argc = argc - optind;
	c->argv = argv + optind;
	if (c->flags & CMD_OUTPUT)
		cmd_not_input(c, "-o", c->output);
}

void
cmd_not_input(const struct cmd *c, const char *what, const char *path)
{
	const char *in = outfile_input(path, c->argv, c->argc);

	if (in != NULL)
		die("%s: %s would replace the input %s: refused", path, what,
		    in);
}

FILE *
cmd_output(struct cmd *c)
{
	if (outfile_open(&c->out, c->output) < 0)
		return NULL;
	c->opened = 1;
	return c->out.f;
}

const char *
cmd_outname(const struct cmd *c)
{
	return c->output != NULL ? c->output : "standard output";
}

/* The end (see cmd_main in cmd.h). */
static int
cmd_end(struct cmd *c, int status, enum cmd_how how)
{
	char *note = c->committed_note;
	int out;

	c->committed_note = NULL;
	num_idset_release(&c->ro.gpus);
	num_idset_release(&c->ro.pids);
	if (c->opened) {
		c->opened = 0;
		if (how == CMD_WRITE_ERROR)
			msg("%s: write error:", cmd_outname(c));
		if (how != CMD_COMMIT) {
			outfile_abort(&c->out);
			free(note);
			return EXIT_TROUBLE;
		}
		/* A failed commit said so; stdout would only say it again. */
		if (outfile_commit(&c->out) < 0) {
			free(note);
			return EXIT_TROUBLE;
		}
		if (note != NULL)
			warnmsg("%s", note);
	}
	free(note);
	out = outfile_close_stdout();
	return status > EXIT_TROUBLE ? status : exit_worst(status, out);
}

int
cmd_main(struct cmd *c, int argc, char *argv[])
{
	int status;

	cmd_start(c, argc, argv);
	c->how = CMD_COMMIT;
	status = c->run(c);
	return cmd_end(c, status, c->how);
}
