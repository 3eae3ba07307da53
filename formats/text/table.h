/* SPDX-License-Identifier: ISC */
/* table.h: the plain nvidia-smi table, logged in a loop. */
#ifndef GPUMEM_TABLE_H
#define GPUMEM_TABLE_H

#include "format.h"

extern const struct format table_format;

#endif
