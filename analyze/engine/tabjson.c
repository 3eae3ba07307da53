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
	out(w, "%s", sb.buf);
	sbuf_release(&sb);
}

static void
json_time_at(struct tasktab_w *w, const char *key, uint64_t t, int present)
{
	struct sbuf sb = SBUF_INIT;

	sbuf_adds(&sb, ", ");
	json_time(&sb, key, t, present);
	out(w, "%s", sb.buf);
	sbuf_release(&sb);
}

/* The object's start up to the tasks' "[", then rest. */
void
json_open(struct tasktab_w *w, const char *rest)
{
	struct sbuf sb = SBUF_INIT;

	json_version(&sb);
	out(w, "{\n  %s,\n  \"tasks\": [%s", sb.buf, rest);
	sbuf_release(&sb);
}

void
put_json(struct tasktab_w *w, const struct task *t)
{
	char d[32], lo[32], hi[32], nb[TASKTAB_NOTESZ];

	if (w->n == 0)
		json_open(w, "\n");
	else
		out(w, ",\n");
	out(w, "    {\"host\": ");
	json_str(w, t->host);
	out(w, ", \"gpu\": %u, \"process_id\": %u, \"name\": ", t->gpu, t->pid);
	json_str(w, t->name);
	json_time_at(w, "start", t->start, 1);
	json_time_at(w, "end", t->end, 1);
	out(w, ", \"peak_mib\": %u, \"held_mib\": %u", t->peak, t->held);
	json_time_at(w, "release", t->release, t->status == TASK_RELEASED);
	if (t->status == TASK_RELEASED)
		out(w, ", \"release_delay_s\": %s, \"delay_min_s\": %s, "
		    "\"delay_max_s\": %s", tasktab_delay(t->delay, t->interval,
		    d), tasktab_delay(t->delay_lo, 0, lo),
		    tasktab_delay(t->delay_hi, 0, hi));
	else
		out(w, ", \"release_delay_s\": null, \"delay_min_s\": null, "
		    "\"delay_max_s\": null");
	if (t->interval != 0)
		out(w, ", \"interval_s\": %s", gtime_fmt_secs(t->interval, d));
	else
		out(w, ", \"interval_s\": null");
	if (t->status == TASK_RELEASED)
		out(w, ", \"leaked_mib\": 0");
	else if (t->status == TASK_LEAKED && t->has_leaked)
		out(w, ", \"leaked_mib\": %u", t->leaked);
	else
		out(w, ", \"leaked_mib\": null");
	out(w, ", \"status\": \"%s\", \"declared\": %s, \"note\": \"%s\"}",
	    tab_status_names[t->status], t->declared ? "true" : "false",
	    tasktab_notes(t->notes, nb));
}
