/* SPDX-License-Identifier: ISC */
/* dcgmi.h: dcgmi dmon logs (DCGM's device monitor). */
#ifndef GPUMEM_DCGMI_H
#define GPUMEM_DCGMI_H

#include "format.h"

extern const struct format dcgmi_format;

#endif
