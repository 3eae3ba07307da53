/* SPDX-License-Identifier: ISC */
/*
 * cmd.h: the skeleton of every gpumem command (as git's run_builtin and
 * its shared option macros): what each main would otherwise repeat, in
 * one place.
 *
 *   - fds 0, 1 and 2 are open before anything else (cmd_stdfds), so that
 *     an output file never gets fd 2 and our messages;
 *   - the common options: -o FILE (CMD_OUTPUT; "-o -" is standard
 *     output), -q, -v, -h/--help, -V/--version, and the read options
 *     (CMD_READ, readopt_parse);
 *   - --help: the synopsis, the command's own text, then the common tail
 *     (the common options, the read options, the exit status), from the
 *     same table getopt_long gets, so an accepted option is a listed one;
 *   - a usage error: the synopsis and "Try 'prog --help'" on stderr,
 *     exit 2;
 *   - the output: opened, then committed or discarded, standard output
 *     closed last, one message for a write error ("standard output: write
 *     error" for stdout and "-o -" alike), the exit codes combined.
 *
 * A command declares a static struct cmd (the fields above "set by
 * cmd_main"): its options as a table, the shared option sets it takes,
 * and its function; its main sets the options' defaults (c->ctx, and
 * c->sets when they point into them) and hands over:
 *
 *	return cmd_main(&cmd, argc, argv);
 *
 * cmd_main parses the options (the command's, the shared sets', the
 * common ones), calls run, and ends: the output committed or dropped as
 * run left c->how, standard output closed, the exit status combined.
 * run opens the output when it is ready to write (cmd_output).
 */
#ifndef GPUMEM_CMD_H
#define GPUMEM_CMD_H

#include <stdio.h>

#include "outfile.h"
#include "readopt.h"

/*
 * One option of a command.  val is what cmd->option gets: a letter is
 * also the short option -letter; long-only options number themselves from
 * OPT_READ_LAST (readopt.h).  arg names the argument (NULL: none); help is
 * the --help text, "\n" continuing it on the next line (NULL: the option
 * is listed on a line of its own with no text).  The table ends with a
 * zero val.  A command may declare a common option itself (-o DIR, its
 * own text for -q): it is then listed as declared, and handled here
 * unless cmd->option takes it.
 */
struct cmd_opt {
	int val;
	const char *name;
	const char *arg;
	const char *help;
};

/*
 * A shared option set a command takes (cfgopt.h, chartopt.h): parse is
 * tried on each option after the command's own, with ctx, and returns 1
 * when val was one of its options, else 0.  Its options are in the
 * command's table (their place there is their place in --help).
 */
struct cmd_set {
	int (*parse)(void *ctx, int val, const char *arg);
	void *ctx;
};

#define CMD_NSETS 2

/* How a command's run ends: what becomes of its output. */
enum cmd_how {
	CMD_COMMIT,		/* keep the output */
	CMD_WRITE_ERROR,	/* writing failed: say so (with errno), drop it */
	CMD_DISCARD		/* something failed and said so: drop it */
};

/* flags */
#define CMD_OUTPUT	0x01	/* -o FILE, "-o -" standard output */
#define CMD_READ	0x02	/* the read options of readopt.h */
#define CMD_READHELP	0x04	/* --help lists the read options in full */
#define CMD_SUMMARIES	0x08	/* a summary per input unless -q (read) */
#define CMD_LIVEAUTO	0x10	/* inputs that are not files read live */
#define CMD_INORDER	0x20	/* options end at the first operand */
#define CMD_CSV		0x40	/* writes CSV: --spreadsheet (csv.h) */

struct cmd {
	/* What the command declares. */
	const char *synopsis;	/* after "usage: prog ", "\n" between lines */
	const char *about;	/* what it does, before the options */
	const struct cmd_opt *opts;	/* its own options */
	const char *exits;	/* after "Exit status: " */
	unsigned flags;
	/*
	 * Apply one of its own options; return 1, or 0 when val is not its
	 * own (then its sets, the common options and the read options are
	 * tried, then it is a usage error).
	 * A bad value is die() ("prog: --opt: 'v': why", exit 2).
	 */
	int (*option)(void *ctx, int val, const char *arg);
	void *ctx;
	struct cmd_set sets[CMD_NSETS];	/* then these, in order */
	/*
	 * The command, once the options are parsed: return its exit status
	 * (msg.h; record's is the command it ran), and set c->how when the
	 * output is not to be kept as it is (CMD_COMMIT).
	 */
	int (*run)(struct cmd *c);

	/* Set by cmd_main. */
	int argc;		/* the operands */
	char **argv;
	const char *output;	/* -o FILE; NULL for standard output */
	struct readopts ro;	/* with CMD_READ */

	/* The output, between cmd_output and the end. */
	struct outfile out;
	int opened;
	enum cmd_how how;	/* how run ended: CMD_COMMIT unless set */
	char *committed_note;	/* said (warnmsg) once the output is
				   committed; freed at the end */
};

/*
 * Open /dev/null on whichever of fds 0, 1 and 2 is closed (a daemon, cron,
 * "2>&-"), so that no file we open later becomes standard input, output
 * or error.  Every binary calls it first (cmd_main does).
 */
void cmd_stdfds(void);

/*
 * Run a command (see above): cmd_stdfds, util_init, the options (the
 * common ones here, then the command's through c->option, then its
 * sets', then the read options); --help and --version print and exit, a
 * bad option is a usage error (exit 2).  Then c->run with the operands
 * in c->argc and c->argv, then the end: the output committed (or dropped,
 * as c->how says), then c->committed_note said, standard output closed,
 * the read options released.  Return run's status combined with what
 * failed at the end (exit_worst): trouble when the output could not be
 * written; a status above EXIT_TROUBLE (record's, the command's it ran)
 * is returned as it is.
 */
int cmd_main(struct cmd *c, int argc, char *argv[]);

/*
 * --help on standard output and exit 0 (2 when standard output fails)
 * for EXIT_OK; else the synopsis and a hint on stderr and exit(status).
 */
void cmd_usage(const struct cmd *c, int status) __attribute__((noreturn));

/*
 * A usage error (exit 2) when the output path would replace one of the
 * operands (outfile_input): cmd_main checks -o; a command with more
 * outputs checks each.  what names the option ("-o").
 */
void cmd_not_input(const struct cmd *c, const char *what, const char *path);

/*
 * Open the output (-o FILE, else standard output): return it, or NULL
 * with a message printed.
 */
FILE *cmd_output(struct cmd *c);

/* The output's name for messages: FILE, or "standard output". */
const char *cmd_outname(const struct cmd *c);

#endif
