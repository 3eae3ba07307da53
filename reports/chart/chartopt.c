/* SPDX-License-Identifier: ISC */
/* chartopt.c: the options and the output of the chart commands. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chartopt.h"
#include "gnuplot.h"
#include "svgzoom.h"
#include "util.h"

void
chartopt_init(struct chartopts *o)
{
	memset(o, 0, sizeof(*o));
	o->term = -1;
}

int
chartopt_parse(void *ctx, int val, const char *arg)
{
	struct chartopts *o = ctx;

	switch (val) {
	case 'T':
		if ((o->term = chart_term_name(arg)) < 0)
			die("--terminal: '%s': expected png, svg, pdf or dumb",
			    arg);
		return 1;
	case OPT_SCRIPT:
		o->script_only = 1;
		return 1;
	case OPT_SIZE:
		if (chart_parse_size(arg, &o->ch.width, &o->ch.height) < 0)
			die("--size: '%s': expected WIDTHxHEIGHT (allowed "
			    "20x10-20000x20000)", arg);
		o->sized = 1;
		return 1;
	case OPT_TITLE:
		o->ch.title = arg;
		return 1;
	case OPT_UTC:
		o->ch.utc = 1;
		return 1;
	}
	return 0;
}

void
chartopt_term(struct chartopts *o, const char *output, int has_text)
{
	int term = o->term;

	if (term < 0 && output != NULL &&
	    (term = chart_term_of_path(output)) < 0)
		die("%s: cannot tell the chart format from the name: use .png, "
		    ".svg or .pdf, %s", output, has_text ? "--terminal, or --text" :
		    "or --terminal");
	if (term < 0)
		term = isatty(STDOUT_FILENO) ? TERM_DUMB : TERM_PNG;
	if ((term == TERM_PNG || term == TERM_PDF) && !o->script_only &&
	    output == NULL && isatty(STDOUT_FILENO))
		die("standard output is a terminal: not writing a %s there "
		    "(use -o FILE%s)", term == TERM_PNG ? "PNG" : "PDF",
		    has_text ? ", or --text" : "");
	if (term == TERM_DUMB && o->sized && (o->ch.width > CHART_DUMB_MAX ||
	    o->ch.height > CHART_DUMB_MAX))
		die("--size %ux%u: a text chart is %dx%d characters at most "
		    "(gnuplot's dumb terminal)", o->ch.width, o->ch.height,
		    CHART_DUMB_MAX, CHART_DUMB_MAX);
	if (!o->script_only && !gnuplot_available())
		die("%s", GNUPLOT_MISSING);
	o->ch.term = (enum chart_term)term;
	o->ch.prog = progname;
}

/*
 * An SVG of one plot area zooms its time axis in a browser (svgzoom.h):
 * gnuplot tells the place of the last area only, so a chart of several
 * (a multiplot of more than one row) is left as drawn.  The markers'
 * texts (tips) go in as their tooltips (chart_svg_tips).
 */
static int
svg_zoom(const struct sbuf *script, const struct sbuf *tips, FILE *f,
    const char *outname)
{
	struct sbuf s = SBUF_INIT, svg = SBUF_INIT, out = SBUF_INIT;
	struct svgbox b;
	int rc;

	svgzoom_init(&b, script);
	sbuf_add(&s, script->buf, script->len);
	svgzoom_ask(&s);
	rc = gnuplot_run(s.buf, s.len, NULL, outname, &svg);
	if (rc == 0 && svgzoom_standalone(&out, svg.buf != NULL ? svg.buf :
	    "", svg.len, &b) < 0) {
		msg("gnuplot drew no SVG");
		rc = -1;
	}
	if (rc == 0 && tips != NULL &&
	    chart_svg_tips(out.buf, out.len, tips, f) < 0) {
		msg("%s: write error:", outname);
		rc = -1;
	} else if (rc == 0 && tips == NULL &&
	    outfile_ewrite_file(f, out.buf, out.len) < 0) {
		msg("%s: write error: %s", outname, strerror(errno));
		rc = -1;
	}
	sbuf_release(&s);
	sbuf_release(&svg);
	sbuf_release(&out);
	return rc;
}

int
chartopt_write(const struct chartopts *o, const struct sbuf *script,
    FILE *f, const char *outname)
{
	const char *mp = script->buf != NULL ? strstr(script->buf,
	    "set multiplot layout ") : NULL;
	const struct sbuf *tips = o->ch.tips != NULL && o->ch.tips->len > 0 ?
	    o->ch.tips : NULL;

	if (!o->script_only && o->ch.term == TERM_SVG &&
	    (mp == NULL || atoi(mp + 21) <= 1))
		return svg_zoom(script, tips, f, outname);
	if (!o->script_only && o->ch.term == TERM_SVG && tips != NULL) {
		struct sbuf svg = SBUF_INIT;
		int rc = gnuplot_run(script->buf, script->len, NULL, outname,
		    &svg);

		if (rc == 0 && chart_svg_tips(svg.buf, svg.len, tips, f) < 0) {
			msg("%s: write error:", outname);
			rc = -1;
		}
		sbuf_release(&svg);
		return rc;
	}
	if (!o->script_only)
		return gnuplot_run(script->buf, script->len, f, outname, NULL);
	if (outfile_ewrite_file(f, script->buf, script->len) < 0) {
		msg("%s: write error:", outname);
		return -1;
	}
	return 0;
}

int
chartopt_collect(struct collection *c, struct collect_opts *co,
    const struct cmd *cmd, const struct cfgopts *cfgo, struct config *cfg)
{
	memset(c, 0, sizeof(*c));
	if (cfgopt_load(cfgo, cfg) < 0)
		return EXIT_TROUBLE;
	co->ro = &cmd->ro;
	co->cfg = cfg;
	co->declared = cfgo->tasks;
	return collect_read(c, cmd->argv, (size_t)cmd->argc, co);
}
