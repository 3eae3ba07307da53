/* SPDX-License-Identifier: ISC */
/* bundle.h: capture bundles (many commands' output in one file). */
#ifndef GPUMEM_BUNDLE_H
#define GPUMEM_BUNDLE_H

#include "source.h"

extern const struct format bundle_format;

#endif
