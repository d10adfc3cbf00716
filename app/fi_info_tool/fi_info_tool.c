/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * fi_info for EAL-style programs: the EAL is started from this command line,
 * then the dpdk provider's domains are listed the way fi_info lists them,
 * with each port's DPDK facts (driver, queues, NUMA socket, link) added.
 *
 *   fi_dpdk_info [EAL options] -- [-l] [-v] [-e] [-t EP] [-c CAPS] [-d DOMAIN]
 *                             [-f FABRIC] [-a FORMAT] [-n NODE] [-s NODE] [-P PORT]
 */

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <rdma/fabric.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>

#include "dfi_config.h"
#include "provider_path.h"


struct name_value {
	const char *name;
	uint64_t value;
};

#define NV(x) { #x, x }

static const struct name_value cap_names[] = {
	NV(FI_MSG), NV(FI_RMA), NV(FI_TAGGED), NV(FI_ATOMIC), NV(FI_MULTICAST),
	NV(FI_COLLECTIVE), NV(FI_READ), NV(FI_WRITE), NV(FI_RECV), NV(FI_SEND),
	NV(FI_REMOTE_READ), NV(FI_REMOTE_WRITE), NV(FI_MULTI_RECV), NV(FI_TRIGGER),
	NV(FI_FENCE), NV(FI_HMEM), NV(FI_VARIABLE_MSG), NV(FI_RMA_PMEM),
	NV(FI_SOURCE_ERR), NV(FI_LOCAL_COMM), NV(FI_REMOTE_COMM), NV(FI_SHARED_AV),
	NV(FI_RMA_EVENT), NV(FI_SOURCE), NV(FI_NAMED_RX_CTX), NV(FI_DIRECTED_RECV),
};

static const struct name_value ep_names[] = {
	NV(FI_EP_UNSPEC), NV(FI_EP_MSG), NV(FI_EP_DGRAM), NV(FI_EP_RDM),
};

static const struct name_value format_names[] = {
	NV(FI_FORMAT_UNSPEC), NV(FI_SOCKADDR), NV(FI_SOCKADDR_IN), NV(FI_SOCKADDR_IN6),
	NV(FI_ADDR_STR),
};

static int
lookup(const struct name_value *table, size_t n, const char *name, uint64_t *value)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strcasecmp(table[i].name, name) == 0) {
			*value = table[i].value;
			return 0;
		}
	}
	fprintf(stderr, "fi_dpdk_info: unknown value '%s'\n", name);
	return -1;
}

static int
parse_caps(char *list, uint64_t *caps)
{
	char *tok, *save = NULL;
	uint64_t v;

	*caps = 0;
	for (tok = strtok_r(list, "|", &save); tok != NULL; tok = strtok_r(NULL, "|", &save)) {
		if (lookup(cap_names, RTE_DIM(cap_names), tok, &v) != 0)
			return -1;
		*caps |= v;
	}
	return 0;
}

static const char *
link_str(uint16_t port_id, char *buf, size_t len)
{
	struct rte_eth_link link;

	if (rte_eth_link_get_nowait(port_id, &link) != 0)
		snprintf(buf, len, "unknown");
	else if (link.link_status == RTE_ETH_LINK_DOWN)
		snprintf(buf, len, "down");
	else
		snprintf(buf, len, "up, %u Mbps, %s-duplex", link.link_speed,
			 link.link_duplex == RTE_ETH_LINK_FULL_DUPLEX ? "full" : "half");
	return buf;
}

static const char *
param_type_str(enum fi_param_type type)
{
	switch (type) {
	case FI_PARAM_STRING:
		return "String";
	case FI_PARAM_INT:
		return "Integer";
	case FI_PARAM_BOOL:
		return "Boolean (0/1, on/off, true/false, yes/no)";
	case FI_PARAM_SIZE_T:
		return "size_t";
	default:
		return "?";
	}
}

static void
print_dpdk_facts(const char *port_name)
{
	struct rte_eth_dev_info dev_info;
	char link[64];
	uint16_t port_id;

	if (rte_eth_dev_get_port_by_name(port_name, &port_id) != 0 ||
	    rte_eth_dev_info_get(port_id, &dev_info) != 0) {
		printf("    dpdk: (no such port)\n");
		return;
	}
	printf("    dpdk:\n");
	printf("        port_id: %u\n", port_id);
	printf("        driver: %s\n", dev_info.driver_name);
	printf("        queues: rx %u/%u, tx %u/%u (configured/max)\n",
	       dev_info.nb_rx_queues, dev_info.max_rx_queues, dev_info.nb_tx_queues,
	       dev_info.max_tx_queues);
	printf("        numa_socket: %d\n", rte_eth_dev_socket_id(port_id));
	printf("        link: %s\n", link_str(port_id, link, sizeof(link)));
}

static void
print_info(const struct fi_info *info, bool verbose)
{
	if (verbose) {
		printf("%s", fi_tostr(info, FI_TYPE_INFO));
	} else {
		printf("provider: %s\n", info->fabric_attr->prov_name);
		printf("    fabric: %s\n", info->fabric_attr->name);
		printf("    domain: %s\n", info->domain_attr->name);
		printf("    version: %u.%u\n", FI_MAJOR(info->fabric_attr->prov_version),
		       FI_MINOR(info->fabric_attr->prov_version));
		printf("    type: %s\n", fi_tostr(&info->ep_attr->type, FI_TYPE_EP_TYPE));
		printf("    protocol: %s\n", fi_tostr(&info->ep_attr->protocol, FI_TYPE_PROTOCOL));
	}
	print_dpdk_facts(info->domain_attr->name);
}

static int
print_params(void)
{
	struct fi_param *params;
	int i, count, ret;
	char *value;

	ret = fi_getparams(&params, &count);
	if (ret != 0)
		return ret;
	for (i = 0; i < count; i++) {
		if (strncmp(params[i].name, "FI_DPDK_", 8) != 0)
			continue;
		value = getenv(params[i].name);
		printf("# %s: %s\n# %s\n", params[i].name,
		       param_type_str(params[i].type), params[i].help_string);
		printf("%s%s\n\n", value != NULL ? "" : "# ", value != NULL ? value : "(unset)");
	}
	fi_freeparams(params);
	return 0;
}

static int
list_provider(void)
{
	struct fi_info *hints, *info, *cur;
	int ret;

	hints = fi_allocinfo();
	if (hints == NULL)
		return -FI_ENOMEM;
	hints->fabric_attr->prov_name = strdup("dpdk");
	ret = fi_getinfo(FI_VERSION(1, 17), NULL, NULL, FI_PROV_ATTR_ONLY, hints, &info);
	fi_freeinfo(hints);
	if (ret != 0)
		return ret;
	/* FI_PROV_ATTR_ONLY answers for every provider; keep ours. */
	for (cur = info; cur != NULL; cur = cur->next) {
		if (strcmp(cur->fabric_attr->prov_name, "dpdk") != 0)
			continue;
		printf("%s:\n    version: %u.%u\n", cur->fabric_attr->prov_name,
		       FI_MAJOR(cur->fabric_attr->prov_version),
		       FI_MINOR(cur->fabric_attr->prov_version));
	}
	fi_freeinfo(info);
	return 0;
}

static void
usage(const char *prog)
{
	fprintf(stderr,
		"Usage: %s [EAL options] -- [options]\n"
		"  -l           list the provider\n"
		"  -v           verbose output (fi_tostr of each info)\n"
		"  -e           print the FI_DPDK_* parameters\n"
		"  -t EPTYPE    endpoint type: FI_EP_RDM, FI_EP_DGRAM\n"
		"  -c CAPS      capabilities: FI_MSG|FI_TAGGED...\n"
		"  -d DOMAIN    domain (DPDK port) name\n"
		"  -f FABRIC    fabric name\n"
		"  -a FORMAT    address format: FI_SOCKADDR_IN, FI_ADDR_STR...\n"
		"  -n NODE      destination node\n"
		"  -s NODE      source node (FI_SOURCE)\n"
		"  -P PORT      service (UDP port)\n", prog);
}

int
main(int argc, char **argv)
{
	struct fi_info *hints, *info, *cur;
	const char *node = NULL, *service = NULL;
	bool verbose = false, list = false, params = false;
	uint64_t flags = 0, v;
	int ret, op;

	app_provider_path();
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "fi_dpdk_info: rte_eal_init: %s\n", rte_strerror(rte_errno));
		return EXIT_FAILURE;
	}
	argc -= ret;
	argv += ret;

	hints = fi_allocinfo();
	if (hints == NULL)
		return EXIT_FAILURE;
	hints->fabric_attr->prov_name = strdup("dpdk");
	hints->mode = ~0ULL;
	hints->domain_attr->mode = ~0ULL;
	hints->domain_attr->mr_mode = ~(FI_MR_BASIC | FI_MR_SCALABLE);

	while ((op = getopt(argc, argv, "lvet:c:d:f:a:n:s:P:h")) != -1) {
		switch (op) {
		case 'l':
			list = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'e':
			params = true;
			break;
		case 't':
			if (lookup(ep_names, RTE_DIM(ep_names), optarg, &v) != 0)
				goto err_usage;
			hints->ep_attr->type = (enum fi_ep_type)v;
			break;
		case 'c':
			if (parse_caps(optarg, &hints->caps) != 0)
				goto err_usage;
			break;
		case 'd':
			hints->domain_attr->name = strdup(optarg);
			break;
		case 'f':
			hints->fabric_attr->name = strdup(optarg);
			break;
		case 'a':
			if (lookup(format_names, RTE_DIM(format_names), optarg, &v) != 0)
				goto err_usage;
			hints->addr_format = (uint32_t)v;
			break;
		case 'n':
			node = optarg;
			break;
		case 's':
			node = optarg;
			flags |= FI_SOURCE;
			break;
		case 'P':
			service = optarg;
			break;
		default:
			goto err_usage;
		}
	}

	if (params)
		ret = print_params();
	else if (list)
		ret = list_provider();
	else {
		ret = fi_getinfo(FI_VERSION(1, 17), node, service, flags, hints, &info);
		if (ret == 0) {
			for (cur = info; cur != NULL; cur = cur->next)
				print_info(cur, verbose);
			fi_freeinfo(info);
		}
	}
	if (ret != 0)
		fprintf(stderr, "fi_dpdk_info: %s\n", fi_strerror(-ret));
	fi_freeinfo(hints);
	rte_eal_cleanup();
	return ret == 0 ? EXIT_SUCCESS : EXIT_FAILURE;

err_usage:
	usage(argv[0]);
	fi_freeinfo(hints);
	rte_eal_cleanup();
	return EXIT_FAILURE;
}
