/* SPDX-License-Identifier: ISC */
/* recfmt.h: the record stream as an input format. */
#ifndef GPUMEM_RECFMT_H
#define GPUMEM_RECFMT_H

#include "source.h"

extern const struct format recfmt_format;		/* text */
extern const struct format recfmt_bin_format;	/* binary, between tools */

#endif
