/* SPDX-License-Identifier: ISC */
/* xml.h: nvidia-smi -q -x XML, one document or many concatenated. */
#ifndef GPUMEM_XML_H
#define GPUMEM_XML_H

#include "format.h"

extern const struct format xml_format;

#endif
