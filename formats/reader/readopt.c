/* SPDX-License-Identifier: ISC */
/* readopt.c: the options of gpumem read, shared by the tools that read. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "colmap.h"
#include "gtime.h"
#include "readopt.h"
#include "source.h"
#include "unzip.h"

const char readopt_help[] =
"  --format NAME      read every input as NAME (default: detect):\n"
"                     stream, query-gpu, compute-apps, bundle, xml,\n"
"                     query-text, table, dmon, pmon, dcgmi, prom, pcap, ...\n"
"  --fields LIST      the query of a log without a header line\n"
"                     (e.g. timestamp,index,memory.used,memory.free)\n"
"  --interval DUR     time between polls of a log without timestamps\n"
"  --start TIME       time of the first poll of such a log\n"
"  --tz ZONE          zone of local times in logs (default: TZ)\n"
"  --host NAME        host name for records of logs (captures name\n"
"                     the sender's address)\n"
"  --gpu LIST         only these GPUs (e.g. 0,2-3)\n"
"  --pid LIST         only these processes (device samples are kept)\n"
"  --since TIME       only records at or after TIME\n"
"  --until TIME       only records at or before TIME\n"
"  --window N         reorder window per input, in records (4096)\n"
"  --strict           the first unreadable line or frame is fatal\n"
"  --filter EXPR      captures: only packets the BPF expression takes\n"
"                     (pcap-filter(7), e.g. 'host 10.0.0.7')\n"
"  --port N           captures: only UDP and TCP to or from port N\n"
"  --no-join          captures: each file on its own, even when several\n"
"                     are one recording (tcpdump -C, dumpcap -b)\n"
"  --max-open N       at most N inputs open at once, merged in passes\n"
"                     beyond (default: the open-files limit less 64)\n"
"  --mem-budget MIB   memory all compressed inputs open at once may take\n"
"                     to decompress, in MiB (512)\n"
"  --map MAP          read CSV through a column map: inline\n"
"                     (timestamp=ts:ms,memory_used=mem_mb:MB,gpu=gpu_id),\n"
"                     a YAML file, or a shipped map (amd-smi, rocm-smi,\n"
"                     xpu-smi)\n"
"  --host-from-file[=REGEX]\n"
"                     each file its own host: its base name without\n"
"                     extensions, or what REGEX matches in it\n"
"  --time-format FMT  timestamps of a CSV log in this strptime(3) format\n"
"                     (e.g. '%d-%m-%Y %H:%M:%S')\n"
"  -j, --jobs N       decode inputs in N threads (default: the CPUs this\n"
"                     process may use, 1 when one input holds most of\n"
"                     the bytes); one input: decoded in a thread of its\n"
"                     own, a large record stream in chunks besides; the\n"
"                     output is that of -j 1\n";

void
readopts_init(struct readopts *o)
{
	memset(o, 0, sizeof(*o));
	o->window = 4096;
	o->port = -1;
	o->until = UINT64_MAX;
}

static uint64_t
time_arg(const char *opt, const char *arg)
{
	uint64_t t;
	int rc;

	if ((rc = gtime_parse(arg, &t)) == -1)
		rc = gtime_relative(arg, gtime_clock(CLOCK_REALTIME), &t);
	if (rc == GTIME_RANGE)
		die("%s: '%s': date out of range (no such date, or outside "
		    "1970..2500)", opt, arg);
	if (rc < 0)
		die("%s: '%s': expected a time (2024-06-01T11:27:15Z, "
		    "'2024/06/01 11:27:15.361', @SECONDS, nanoseconds, now, "
		    "today, yesterday, or an age: 90s, 30m, 2h30m, 1d)",
		    opt, arg);
	return t;
}

int
readopt_parse(struct readopts *o, int ch, const char *arg)
{
	uint64_t v;

	switch (ch) {
	case OPT_FORMAT:
		if (format_find(arg) == NULL) {
			size_t i;
			struct sbuf sb = SBUF_INIT;

			for (i = 0; format_list[i] != NULL; i++)
				sbuf_printf(&sb, "%s%s", i ? ", " : "",
				    format_list[i]->name);
			die("--format: '%s': unknown format (known: %s)", arg,
			    sb.buf);
		}
		o->format = arg;
		return 1;
	case OPT_FIELDS:
		o->fields = arg;
		return 1;
	case OPT_INTERVAL:
		if (gtime_duration(arg, &v) < 0 || v == 0)
			die("--interval: '%s': expected a duration above 0 "
			    "(100ms, 5s, 1m)", arg);
		o->interval = v;
		return 1;
	case OPT_START:
		o->start = time_arg("--start", arg);
		o->have_start = 1;
		return 1;
	case OPT_TZ:
		if (gtime_set_tz(arg) < 0)
			die("--tz: '%s': unknown time zone (not a zone of %s, "
			    "nor a POSIX TZ string such as UTC0 or "
			    "EST5EDT,M3.2.0,M11.1.0); list the zones: ls %s",
			    arg, gtime_tzdir(), gtime_tzdir());
		return 1;
	case OPT_HOST:
		o->host = arg;
		return 1;
	case OPT_GPU:
		if (num_idset_parse(&o->gpus, arg) < 0)
			die("--gpu: '%s': expected a list of GPU indexes "
			    "(0,2-3)", arg);
		return 1;
	case OPT_PID:
		if (num_idset_parse(&o->pids, arg) < 0)
			die("--pid: '%s': expected a list of process ids "
			    "(1234,5000-5100)", arg);
		return 1;
	case OPT_SINCE:
		o->since = time_arg("--since", arg);
		return 1;
	case OPT_UNTIL:
		o->until = time_arg("--until", arg);
		return 1;
	case OPT_WINDOW:
		o->window = (size_t)num_opt_u64("--window", arg, 1, 1U << 24);
		return 1;
	case OPT_STRICT:
		o->strict = 1;
		return 1;
	case OPT_FILTER:
		o->filter = arg;
		return 1;
	case OPT_PORT:
		o->port = (int)num_opt_u64("--port", arg, 1, 65535);
		return 1;
	case OPT_LIVE:
		o->live = LIVE_ON;
		return 1;
	case OPT_NO_LIVE:
		o->live = LIVE_OFF;
		return 1;
	case OPT_MAP: {
		struct colmap *m;
		char err[512];

		/* Checked now; each input loads its own copy. */
		if ((m = colmap_load(arg, err, sizeof(err))) == NULL)
			die("--map: %s", err);
		colmap_free(m);
		o->map = arg;
		return 1;
	}
	case OPT_HOST_FROM_FILE: {
		char err[256], *h;

		if (arg != NULL && source_file_host("", arg, &h, err,
		    sizeof(err)) < 0)
			die("--host-from-file: '%s': %s", arg, err);
		if (arg != NULL)
			free(h);
		o->host_from_file = 1;
		o->host_pattern = arg;
		return 1;
	}
	case OPT_NO_JOIN:
		o->no_join = 1;
		return 1;
	case OPT_TIME_FORMAT:
		if (strchr(arg, '%') == NULL)
			die("--time-format: '%s': expected a strptime(3) "
			    "format ('%%d-%%m-%%Y %%H:%%M:%%S')", arg);
		o->time_format = arg;
		return 1;
	case 'j':
		o->jobs = (unsigned)num_opt_u64("--jobs", arg, 1, 1024);
		return 1;
	case OPT_MAX_OPEN:
		/* Undocumented in --help: for tests (read.1 says it). */
		o->max_open = (size_t)num_opt_u64("--max-open", arg, 2,
		    1 << 30);
		return 1;
	case OPT_MEM_BUDGET:
		unzip_set_budget(num_opt_u64("--mem-budget", arg, 1,
		    UINT64_C(1) << 30));
		return 1;
	case OPT_LAG:
		if (gtime_duration(arg, &o->lag) < 0)
			die("--lag: '%s': expected a duration (0, 100ms, 1s)",
			    arg);
		o->lag_set = 1;
		return 1;
	default:
		return 0;
	}
}
