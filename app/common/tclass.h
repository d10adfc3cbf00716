/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Traffic classes (fi_endpoint(3)) by name, as the programs' options give them. */

#ifndef _APP_TCLASS_H_
#define _APP_TCLASS_H_

#include <stdint.h>

/** The names app_tclass_parse() takes, for usage lines. */
#define APP_TCLASS_NAMES \
	"unspec|best_effort|low_latency|dedicated_access|bulk_data|scavenger|network_ctrl|dscp:N"

/**
 * Parses a traffic class: a label's name (low_latency for
 * FI_TC_LOW_LATENCY...) or dscp:N (fi_tc_dscp_set(N), N up to 63).
 *
 * @return 0 with *tclass set, or -1.
 */
int app_tclass_parse(const char *name, uint32_t *tclass);

#endif /* _APP_TCLASS_H_ */
