/* SPDX-License-Identifier: ISC */
/* help.h: nvidia-smi help texts, recognised to be refused with a reason. */
#ifndef GPUMEM_HELP_H
#define GPUMEM_HELP_H

#include "format.h"

extern const struct format help_format;

#endif
