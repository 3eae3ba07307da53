/* SPDX-License-Identifier: ISC */
/*
 * util.h: what every gpumem module shares, one header to include:
 * messages and exit codes (msg.h), checked allocation (alloc.h), numbers
 * and id lists (num.h), byte buffers (sbuf.h), safe output (outfile.h),
 * UTF-8 and terminal-safe text (text.h).  Each has its contract in its
 * own header.
 */
#ifndef GPUMEM_UTIL_H
#define GPUMEM_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "msg.h"
#include "num.h"
#include "outfile.h"
#include "sbuf.h"
#include "text.h"

#endif
