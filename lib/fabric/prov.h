/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* The provider's entry point, as libfabric's loader looks it up. */

#ifndef _DFI_PROV_H_
#define _DFI_PROV_H_

#include <rdma/providers/fi_prov.h>

/** Called once by libfabric after dlopen(); cheap, it runs in every process. */
struct fi_provider *fi_prov_ini(void);

#endif /* _DFI_PROV_H_ */
