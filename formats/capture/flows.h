/* SPDX-License-Identifier: ISC */
/*
 * flows.h: the GMEM stream of each TCP direction reasm.h puts together:
 * frames to demux.h's cap_frame(), bytes lost to holes counted; the bytes
 * that wait behind a hole are parsed at once (and passed over when the
 * stream reaches them), so the frames of bytes that fill the hole after
 * that are late (capstate.h's `late' is set while they are fed); a
 * direction that is not GMEM is dropped and its packets counted as such.
 */
#ifndef GPUMEM_FLOWS_H
#define GPUMEM_FLOWS_H

#include "reasm.h"

/* reasm.h's callbacks; their argument is the struct capture. */
extern const struct tcp_ops flows_ops;

#endif
