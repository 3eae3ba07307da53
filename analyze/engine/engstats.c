/* SPDX-License-Identifier: ISC */
/*
 * engstats.c: the engine's counts (engstate.h), and what they tell
 * people at the end: the samples and records it could not use, the caps
 * it hit, what it decided that the data did not say.
 */
#include "engstate.h"

const struct engine_stats *
engine_stats(const struct engine *e)
{
	return &e->st;
}

void
engine_warnings(const struct engine *e)
{
	if (e->st.unknown > 0 && e->st.nousage > 0 && e->st.samples == 0)
		warnmsg("%llu tasks ended on GPUs whose %llu whole-device "
		    "samples have no memory figures (N/A: a unified-memory "
		    "GPU such as GB10 reports none): whether their memory "
		    "came back is unknown", (unsigned long long)e->st.unknown,
		    (unsigned long long)e->st.nousage);
	else if (e->st.unknown > 0)
		warnmsg("%llu tasks ended on GPUs without whole-device "
		    "samples: whether their memory came back is unknown (give "
		    "the --query-gpu log of the same run too)",
		    (unsigned long long)e->st.unknown);
	if (e->negative > 0)
		note("%llu device samples showed less memory in use than the "
		    "processes held (the logs' clocks disagree)",
		    (unsigned long long)e->negative);
	if (e->st.ambiguous > 0)
		note("%llu device samples fell between the two process polls "
		    "around a change of a process's memory: not used to time "
		    "releases", (unsigned long long)e->st.ambiguous);
	if (e->st.dips > 0)
		note("%llu drops of memory in use lasted one sample only: "
		    "not taken as releases", (unsigned long long)e->st.dips);
	if (e->st.resumed > 0)
		note("%llu processes were missing from some polls and listed "
		    "again: one task each", (unsigned long long)e->st.resumed);
	if (e->st.splits > 0)
		note("%llu pids were reused by a new process while the memory "
		    "of the one before was still out: two tasks each",
		    (unsigned long long)e->st.splits);
	if (e->st.capped > 0)
		warnmsg("more than %d processes alive at once: %llu records "
		    "of the ones beyond were not tracked", ENGINE_MAXLIVE,
		    (unsigned long long)e->st.capped);
	if (e->st.gpucapped > 0)
		warnmsg("more than %d GPUs: %llu records of the GPUs beyond "
		    "were not analysed", ENGINE_MAXGPUS,
		    (unsigned long long)e->st.gpucapped);
	if (e->st.waitcapped > 0)
		warnmsg("more than %d tasks waiting for their memory on one "
		    "GPU: %llu of them given up as leaked before the end of "
		    "the data", ENGINE_MAXWAIT,
		    (unsigned long long)e->st.waitcapped);
	if (e->st.declcapped > 0)
		warnmsg("more than %d tasks declared on one GPU: %llu of them "
		    "left out", ENGINE_MAXWAIT,
		    (unsigned long long)e->st.declcapped);
	if (e->st.early > 0)
		note("more than %d device samples at one time: %llu judged "
		    "before all the process records of their poll were in",
		    ENGINE_MAXPENDING, (unsigned long long)e->st.early);
	if (e->st.episodes > 0) {
		char left[64];

		if (e->st.episode_mib > 0)
			snprintf(left, sizeof(left), "%llu MiB of it not back "
			    "at the end", (unsigned long long)e->st.episode_mib);
		else
			snprintf(left, sizeof(left), "all of it back by the end");
		if (e->st.episode_held == 0)
			warnmsg("no process was listed on %llu GPU%s: %llu "
			    "rise%s of memory in use %s task%s named %s (note "
			    "'device-only'), %s; give the --query-compute-apps "
			    "log of the same run, or --tasks, to know whose",
			    (unsigned long long)e->st.episode_gpus,
			    e->st.episode_gpus == 1 ? "" : "s",
			    (unsigned long long)e->st.episodes,
			    e->st.episodes == 1 ? "" : "s",
			    e->st.episodes == 1 ? "is a" : "are",
			    e->st.episodes == 1 ? "" : "s", EPISODE_NAME, left);
		else
			warnmsg("no process was listed on %llu GPU%s: %llu "
			    "rise%s of memory in use, %s; %llu named after the "
			    "process holding the GPU open (note 'holder'), the "
			    "first %s%s", (unsigned long long)e->st.episode_gpus,
			    e->st.episode_gpus == 1 ? "" : "s",
			    (unsigned long long)e->st.episodes,
			    e->st.episodes == 1 ? "" : "s", left,
			    (unsigned long long)e->st.episode_held, e->held1,
			    e->st.episode_held < e->st.episodes ? "; the others "
			    "are named " EPISODE_NAME ": give the "
			    "--query-compute-apps log of the same run, or "
			    "--tasks, to know whose" : "");
	}
	if (e->st.unowned_drops > 0)
		note("%llu drops of memory were of memory that rose while "
		    "tasks ran and none came or went (a desktop's, another "
		    "container's): not taken as waiting tasks' releases",
		    (unsigned long long)e->st.unowned_drops);
	if (e->st.unowned_gpus > 0)
		warnmsg("%llu MiB in use at the end on %llu GPU%s is held by no "
		    "task: above the level at the first sample, and no "
		    "process listed holds it (memory of processes the log "
		    "cannot see: a desktop, another container)",
		    (unsigned long long)e->st.unowned_mib,
		    (unsigned long long)e->st.unowned_gpus,
		    e->st.unowned_gpus == 1 ? "" : "s");
	if (e->st.episode_merged > 0)
		warnmsg("%llu episodes of memory in use were merged with "
		    "others: more than %d on one GPU, or %d open at once",
		    (unsigned long long)e->st.episode_merged, EPISODE_MAX,
		    EPISODE_OPEN);
	if (e->st.nousage > 0)
		note("%llu device samples had no usable memory values",
		    (unsigned long long)e->st.nousage);
}
