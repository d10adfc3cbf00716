/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* The endpoint layer's entry points, as lib/ep registered them. */

#include "ep_layer.h"

struct dfi_ep_layer dfi_ep_layer;
