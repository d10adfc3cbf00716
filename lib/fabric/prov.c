/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * Provider registration: fi_prov_ini() declares the parameters and nothing
 * else, since libfabric runs it in every process that loads the library.
 * DPDK is started later, on the first call that needs a port.
 */

#include <stdbool.h>

#include <rdma/fabric.h>

#include <rte_common.h>

#include "dfi.h"
#include "eal.h"
#include "fabric.h"
#include "getinfo.h"
#include "helper.h"
#include "params.h"
#include "port.h"
#include "prov.h"

static void dfi_cleanup(void);

/* Not const: libfabric writes its bookkeeping into context. */
struct fi_provider dfi_prov = {
	.version = DFI_PROV_VERSION,
	.fi_version = DFI_FI_VERSION,
	.name = DFI_PROV_NAME,
	.getinfo = dfi_getinfo,
	.fabric = dfi_fabric_open,
	.cleanup = dfi_cleanup,
};

/*
 * libfabric keeps a struct ofi_prov_context in fi_provider::context (include/
 * ofi.h, the same from 1.17 through 2.x). Its disable_layering flag is how the
 * built-in providers that have native RDM endpoints keep ofi_rxd and ofi_rxm
 * from listing "dpdk;ofi_rxd" ahead of them; an external provider has no API
 * to set it. Without it, getinfo still refuses utility providers that the
 * application did not ask for by name (see hints_name_dpdk()).
 */
struct core_prov_context {
	int type;
	bool disable_logging;
	bool disable_layering;
};

static void
dfi_disable_layering(void)
{
	uint32_t v = fi_version();
	struct core_prov_context *ctx = (struct core_prov_context *)(void *)&dfi_prov.context;

	RTE_BUILD_BUG_ON(sizeof(struct core_prov_context) > sizeof(struct fi_context));
	if (FI_MAJOR(v) == 1 && FI_MINOR(v) >= 17)
		ctx->disable_layering = true;
	else
		DFI_INFO(FI_LOG_CORE, "libfabric %u.%u: layering left to getinfo",
			 FI_MAJOR(v), FI_MINOR(v));
}

struct fi_provider *
fi_prov_ini(void)
{
	dfi_params_define();
	dfi_disable_layering();
	return &dfi_prov;
}

static void
dfi_cleanup(void)
{
	/* a forked child's exit: the ports and the EAL are its parent's */
	if (dfi_eal_forked())
		return;
	/* a program that exits with objects open: our threads still poll them */
	dfi_helpers_stop();
	dfi_ports_fini(dfi_eal_owned());
	dfi_eal_fini();
}
