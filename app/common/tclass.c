/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Traffic classes by name (see tclass.h). */

#include <stdlib.h>
#include <string.h>

#include <rdma/fabric.h>

#include "tclass.h"

int
app_tclass_parse(const char *name, uint32_t *tclass)
{
	static const struct {
		const char *name;
		uint32_t tclass;
	} labels[] = {
		{ "unspec", FI_TC_UNSPEC },
		{ "best_effort", FI_TC_BEST_EFFORT },
		{ "low_latency", FI_TC_LOW_LATENCY },
		{ "dedicated_access", FI_TC_DEDICATED_ACCESS },
		{ "bulk_data", FI_TC_BULK_DATA },
		{ "scavenger", FI_TC_SCAVENGER },
		{ "network_ctrl", FI_TC_NETWORK_CTRL },
	};
	unsigned long dscp;
	char *end;
	size_t i;

	for (i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
		if (strcmp(name, labels[i].name) == 0) {
			*tclass = labels[i].tclass;
			return 0;
		}
	}
	if (strncmp(name, "dscp:", 5) != 0)
		return -1;
	dscp = strtoul(name + 5, &end, 0);
	if (end == name + 5 || *end != '\0' || dscp > 63)
		return -1;
	*tclass = fi_tc_dscp_set((uint8_t)dscp);
	return 0;
}
