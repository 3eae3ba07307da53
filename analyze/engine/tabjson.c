/* SPDX-License-Identifier: ISC */
/*
 * tabjson.c: the task table as one JSON object (tasktab.h,
 * docs/schema/tasks.json): {"version", "tasks": [...]}, a task a line.
 */
#include "esc.h"
#include "gtime.h"
#include "json.h"
#include "tabstate.h"

/* A JSON string (esc.h: valid UTF-8 whatever the name holds). */
static void
json_str(struct tasktab_w *w, const char *s)
{
	struct sbuf sb = SBUF_INIT;

	esc_json(&sb, s);
	tab_out(w, "%s", sb.buf);
	sbuf_release(&sb);
}

static void
json_time_at(struct tasktab_w *w, const char *key, uint64_t t, int present)
{
	struct sbuf sb = SBUF_INIT;

	sbuf_adds(&sb, ", ");
	json_time(&sb, key, t, present);
	tab_out(w, "%s", sb.buf);
	sbuf_release(&sb);
}

/* The object's start up to the tasks' "[", then rest. */
void
tab_json_open(struct tasktab_w *w, const char *rest)
{
	struct sbuf sb = SBUF_INIT;

	json_version(&sb);
	tab_out(w, "{\n  %s,\n  \"tasks\": [%s", sb.buf, rest);
	sbuf_release(&sb);
}

void
tab_put_json(struct tasktab_w *w, const struct task *t)
{
	char d[32], lo[32], hi[32], nb[TASKTAB_NOTESZ];

	if (w->n == 0)
		tab_json_open(w, "\n");
	else
		tab_out(w, ",\n");
	tab_out(w, "    {\"host\": ");
	json_str(w, t->host);
	tab_out(w, ", \"gpu\": %u, \"process_id\": %u, \"name\": ", t->gpu,
	    t->pid);
	json_str(w, t->name);
	json_time_at(w, "start", t->start, 1);
	json_time_at(w, "end", t->end, 1);
	tab_out(w, ", \"peak_mib\": %u, \"held_mib\": %u", t->peak, t->held);
	json_time_at(w, "release", t->release, t->status == TASK_RELEASED);
	if (t->status == TASK_RELEASED)
		tab_out(w, ", \"release_delay_s\": %s, \"delay_min_s\": %s, "
		    "\"delay_max_s\": %s", tasktab_delay(t->delay, t->interval,
		    d), tasktab_delay(t->delay_lo, 0, lo),
		    tasktab_delay(t->delay_hi, 0, hi));
	else
		tab_out(w, ", \"release_delay_s\": null, \"delay_min_s\": "
		    "null, \"delay_max_s\": null");
	if (t->interval != 0)
		tab_out(w, ", \"interval_s\": %s",
		    gtime_fmt_secs(t->interval, d));
	else
		tab_out(w, ", \"interval_s\": null");
	if (t->status == TASK_RELEASED)
		tab_out(w, ", \"leaked_mib\": 0");
	else if (t->status == TASK_LEAKED && t->has_leaked)
		tab_out(w, ", \"leaked_mib\": %u", t->leaked);
	else
		tab_out(w, ", \"leaked_mib\": null");
	tab_out(w, ", \"status\": \"%s\", \"declared\": %s, \"note\": \"%s\"}",
	    tab_status_names[t->status], t->declared ? "true" : "false",
	    tasktab_notes(t->notes, nb));
}
