/* SPDX-License-Identifier: ISC */
/*
 * Unit tests: text made safe for XML, JSON, Markdown and gnuplot
 * (formats/core/esc.c), and for terminals (text_clean, formats/core/text.c).
 */
#include <stdio.h>
#include <string.h>

#include "esc.h"
#include "test.h"

static const char *
xml(const char *s, int attr)
{
	static struct sbuf sb;

	sbuf_reset(&sb);
	esc_xml(&sb, s, attr);
	return sb.buf != NULL ? sb.buf : "";
}

static const char *
json(const char *s)
{
	static struct sbuf sb;

	sbuf_reset(&sb);
	esc_json(&sb, s);
	return sb.buf;
}

static const char *
md(const char *s)
{
	static struct sbuf sb;

	sbuf_reset(&sb);
	esc_md(&sb, s);
	return sb.buf != NULL ? sb.buf : "";
}

static const char *
gp(const char *s, int data)
{
	static struct sbuf sb;

	sbuf_reset(&sb);
	esc_gnuplot(&sb, s, data);
	return sb.buf;
}

static const char *
word(const char *s)
{
	static struct sbuf sb;

	sbuf_reset(&sb);
	esc_word(&sb, s);
	return sb.buf;
}

static const char *
url(const char *s)
{
	static struct sbuf sb;

	sbuf_reset(&sb);
	esc_url(&sb, s);
	return sb.buf;
}

static const char *
clean(const char *s, size_t maxchars)
{
	static char buf[64];

	return text_clean(s, maxchars, buf, sizeof(buf));
}

int
main(void)
{
	const unsigned char *u;

	/* UTF-8: valid sequences of each length, and what is not valid. */
	CHECK_U64(text_utf8_seq((const unsigned char *)"a", 1), 1);
	CHECK_U64(text_utf8_seq((const unsigned char *)"\xc2\xb1", 2), 2);
	CHECK_U64(text_utf8_seq((const unsigned char *)"\xe2\x9c\x85", 3), 3);
	CHECK_U64(text_utf8_seq((const unsigned char *)"\xf0\x9f\x98\x80", 4),
	    4);
	CHECK_U64(text_utf8_seq((const unsigned char *)"\xff", 1), 0);
	CHECK_U64(text_utf8_seq((const unsigned char *)"\x80", 1), 0);
	CHECK_U64(text_utf8_seq((const unsigned char *)"\xc0\xaf", 2), 0);
	CHECK_U64(text_utf8_seq((const unsigned char *)"\xe0\x80\xaf", 3), 0);
	CHECK_U64(text_utf8_seq((const unsigned char *)"\xed\xa0\x80", 3), 0);
	CHECK_U64(text_utf8_seq((const unsigned char *)"\xf4\x90\x80\x80", 4),
	    0);
	CHECK_U64(text_utf8_seq((const unsigned char *)"\xe2\x9c", 2), 0);
	u = (const unsigned char *)"\xc3(";
	CHECK_U64(text_utf8_seq(u, 2), 0);

	/* XML: markup, quotes, line ends in attributes, control bytes. */
	CHECK_STR(xml("a&b <c> \"d\" 'e'", 1),
	    "a&amp;b &lt;c&gt; &quot;d&quot; &apos;e&apos;");
	CHECK_STR(xml("x\ty\nz", 1), "x&#9;y&#10;z");
	CHECK_STR(xml("x\ty\nz", 0), "x\ty\nz");
	CHECK_STR(xml("a\001b\177", 0), "a\xef\xbf\xbd" "b\xef\xbf\xbd");
	CHECK_STR(xml("\xff\xfe ok \xc2\xb1", 0),
	    "\xef\xbf\xbd\xef\xbf\xbd ok \xc2\xb1");
	CHECK_STR(xml("\xef\xbf\xbe", 0), "\xef\xbf\xbd");
	CHECK_STR(xml("]]>", 0), "]]&gt;");
	CHECK_STR(xml("", 1), "");

	/* JSON: quotes and escapes, control bytes, invalid UTF-8. */
	CHECK_STR(json("a\"b\\c"), "\"a\\\"b\\\\c\"");
	CHECK_STR(json("l1\nl2\tx\001"), "\"l1\\nl2\\tx\\u0001\"");
	CHECK_STR(json("\xc3("), "\"\xef\xbf\xbd(\"");
	CHECK_STR(json(""), "\"\"");

	/* Markdown cells: markup escaped, line breaks as spaces. */
	CHECK_STR(md("a|b *c* _d_ `e` [f](g) <h> #1 ~~i~~ \\"),
	    "a\\|b \\*c\\* \\_d\\_ \\`e\\` \\[f\\](g) \\<h\\> \\#1 "
	    "\\~\\~i\\~\\~ \\\\");
	CHECK_STR(md("two\nlines"), "two lines");
	CHECK_STR(md("&amp; $x$"), "\\&amp; \\$x\\$");
	CHECK_STR(md("\033[2J"), " \\[2J");
	/* No @mention, URL or e-mail link: U+200B where GitHub finds them. */
#define Z "\xe2\x80\x8b"
	CHECK_STR(md("@octocat a@b.io"), "@" Z "octocat a@" Z "b.io");
	CHECK_STR(md("https://x.io/a//b ftp:/c"), "https:/" Z "/x.io/a//b ftp:/c");
	CHECK_STR(md("www.x.io WWW.y wwwz."), "www" Z ".x.io WWW" Z ".y wwwz.");
#undef Z

	/* gnuplot: '' doubled, a leading quote joined on, no line break. */
	CHECK_STR(gp("it's", 0), "'it''s'");
	CHECK_STR(gp("'lead'", 0), "\"'\".'lead'''");
	CHECK_STR(gp("''", 0), "\"'\".\"'\".''");
	CHECK_STR(gp("a\nsystem('x') #\r\x7f", 0), "'a system(''x'') #  '");
	CHECK_STR(gp("`x` @m \\", 0), "'`x` @m \\'");
	CHECK_STR(gp("\xff", 0), "'\xef\xbf\xbd'");
	CHECK_STR(gp("", 0), "''");
	/* "]]>" (in gnuplot's SVG text: XML forbids it) with U+2060. */
	CHECK_STR(gp("a]]>b]>]]]>", 0),
	    "'a]]\xe2\x81\xa0>b]>]]]\xe2\x81\xa0>'");
	CHECK_STR(gp("]]>", 1), "\"]]\xe2\x81\xa0>\"");
	/* Data blocks: " as ', backslash doubled, no line ("EOD"). */
	CHECK_STR(gp("a\"b\\n\nEOD", 1), "\"a'b\\\\n EOD\"");

	/* Words of a line (record's meta): plain, else a JSON string. */
	CHECK_STR(word("--lr=0.1,x_y/z:a+b@c%d"), "--lr=0.1,x_y/z:a+b@c%d");
	CHECK_STR(word("two words"), "\"two words\"");
	/* A link's file name: what could end or split it is %XX. */
	CHECK_STR(url("r-node_1.a~b+2.html"), "r-node_1.a~b+2.html");
	CHECK_STR(url("my r#1?%/\"'<&\xc3\xa9 x.html"),
	    "my%20r%231%3F%25%2F%22%27%3C%26%C3%A9%20x.html");
	CHECK_STR(word("x\nend: 0"), "\"x\\nend: 0\"");
	CHECK_STR(word("\"q\" \\"), "\"\\\"q\\\" \\\\\"");
	CHECK_STR(word(""), "\"\"");

	/* Terminals: controls (C0, DEL, C1) as spaces, bad bytes as '?'. */
	CHECK_STR(clean("a\033[2Jb\033]0;t\007", 60), "a [2Jb ]0;t ");
	CHECK_STR(clean("csi\xc2\x9b\x7f", 60), "csi  ");
	CHECK_STR(clean("\xff\xc0\xaf \xc2\xb1", 60), "??? \xc2\xb1");
	CHECK_STR(clean("abcdefghij", 5), "ab...");
	CHECK_STR(clean("line\nbreak", 60), "line break");
	CHECK_STR(md("python3 train.py --lr 0.1"), "python3 train.py --lr 0.1");
	TEST_END("esc");
}
