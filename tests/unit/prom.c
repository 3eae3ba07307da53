/* SPDX-License-Identifier: ISC */
/* Unit tests: Prometheus sample lines (formats/text/promline.c, prom_parse). */
#include <string.h>

#include "promline.h"
#include "test.h"

static int
parse(const char *line, struct prom_line *pl, const char **why)
{
	*why = "";
	return prom_parse(line, pl, why);
}

int
main(void)
{
	struct prom_line pl;
	const char *why;

	memset(&pl, 0, sizeof(pl));

	/* dcgm-exporter, as scraped. */
	CHECK(parse("DCGM_FI_DEV_FB_USED{gpu=\"0\",UUID=\"GPU-20c5\","
	    "Hostname=\"424773df46e0\"} 0", &pl, &why) == 0);
	CHECK(pl.nl == 19 && memcmp(pl.name, "DCGM_FI_DEV_FB_USED", 19) == 0);
	CHECK_U64(pl.nlab, 3);
	CHECK_STR(prom_label(&pl, "gpu"), "0");
	CHECK_STR(prom_label(&pl, "UUID"), "GPU-20c5");
	CHECK_STR(prom_label(&pl, "Hostname"), "424773df46e0");
	CHECK(prom_label(&pl, "uuid") == NULL);
	CHECK(pl.vl == 1 && pl.value[0] == '0');
	CHECK(!pl.has_ts);

	/* README style: spaces after commas; labels in another order. */
	CHECK(parse("DCGM_FI_DEV_FB_FREE{ UUID=\"GPU-x\", gpu = \"3\" ,} "
	    "15109 1717241235361", &pl, &why) == 0);
	CHECK_STR(prom_label(&pl, "gpu"), "3");
	CHECK_STR(prom_label(&pl, "UUID"), "GPU-x");
	CHECK(pl.has_ts);
	CHECK_U64(pl.ts_ms, 1717241235361ULL);
	CHECK(pl.vl == 5 && memcmp(pl.value, "15109", 5) == 0);

	/* Escapes in a value; a float value; no labels at all. */
	CHECK(parse("nvidia_smi_compute_app_used_memory_bytes{pid=\"7\","
	    "process_name=\"a \\\"b\\\" c\\\\d\\ne\"} 2.690646016e+09", &pl,
	    &why) == 0);
	CHECK_STR(prom_label(&pl, "process_name"), "a \"b\" c\\d\ne");
	CHECK_STR(prom_label(&pl, "pid"), "7");
	CHECK(pl.vl == 15);
	CHECK(parse("up 1", &pl, &why) == 0 && pl.nlab == 0 && pl.nl == 2);
	CHECK(parse("a:b_c{} NaN", &pl, &why) == 0 && pl.nl == 5);

	/* Broken lines say what was expected. */
	CHECK(parse("DCGM_FI_DEV_FB_USED{gpu=\"0\"", &pl, &why) == -1);
	CHECK_STR(why, "',' or '}' after a label");
	CHECK(parse("DCGM_FI_DEV_FB_USED{gpu=\"0\",", &pl, &why) == -1);
	CHECK_STR(why, "a label name");
	CHECK(parse("DCGM_FI_DEV_FB_USED{gpu=\"0} 1", &pl, &why) == -1);
	CHECK_STR(why, "the end of a label value");
	CHECK(parse("DCGM_FI_DEV_FB_USED{gpu=0} 1", &pl, &why) == -1);
	CHECK_STR(why, "a quoted label value");
	CHECK(parse("DCGM_FI_DEV_FB_USED{gpu=\"0\" UUID=\"x\"} 1", &pl,
	    &why) == -1);
	CHECK_STR(why, "',' or '}' after a label");
	CHECK(parse("DCGM_FI_DEV_FB_USED{gpu=\"0\"}", &pl, &why) == -1);
	CHECK_STR(why, "a space and a value after the metric");
	CHECK(parse("DCGM_FI_DEV_FB_USED 1 x", &pl, &why) == -1);
	CHECK_STR(why, "a timestamp in milliseconds after the value");
	CHECK(parse("DCGM_FI_DEV_FB_USED 1 2 3", &pl, &why) == -1);
	CHECK(parse("9lives 1", &pl, &why) == -1);
	CHECK_STR(why, "a metric name");
	CHECK(parse("x{1a=\"b\"} 1", &pl, &why) == -1);

	sbuf_release(&pl.vals);
	TEST_END("prom");
}
