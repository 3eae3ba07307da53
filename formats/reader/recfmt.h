/* SPDX-License-Identifier: ISC */
/* recfmt.h: the record stream as an input format. */
#ifndef GPUMEM_RECFMT_H
#define GPUMEM_RECFMT_H

#include "source.h"

extern const struct format fmt_stream;		/* text */
extern const struct format fmt_stream_bin;	/* binary, between tools */

#endif
