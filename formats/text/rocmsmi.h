/* SPDX-License-Identifier: ISC */
/* rocmsmi.h: rocm-smi --showmeminfo vram, as text or --json, in a loop. */
#ifndef GPUMEM_ROCMSMI_H
#define GPUMEM_ROCMSMI_H

#include "format.h"

extern const struct format rocmsmi_format;

#endif
