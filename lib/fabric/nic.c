/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* fid_nic objects: creation from a PMD, deep copy, close and printing. */

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus.h>
#include <rte_dev.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_pci.h>

#include "dfi.h"
#include "ib_dev.h"
#include "nic.h"
#include "stubs.h"

static int nic_close(struct fid *fid);
static int nic_control(struct fid *fid, int command, void *arg);
static int nic_tostr(const struct fid *fid, char *buf, size_t len);
static struct fi_ops dfi_nic_ops = {
	.size = sizeof(struct fi_ops),
	.close = nic_close,
	.bind = dfi_no_bind,
	.control = nic_control,
	.ops_open = dfi_no_ops_open,
	.tostr = nic_tostr,
	.ops_set = dfi_no_ops_set,
};

static void
nic_free(struct fid_nic *nic)
{
	if (nic->device_attr != NULL) {
		free(nic->device_attr->name);
		free(nic->device_attr->device_id);
		free(nic->device_attr->device_version);
		free(nic->device_attr->vendor_id);
		free(nic->device_attr->driver);
		free(nic->device_attr->firmware);
		free(nic->device_attr);
	}
	free(nic->bus_attr);
	if (nic->link_attr != NULL) {
		free(nic->link_attr->address);
		free(nic->link_attr->network_type);
		free(nic->link_attr);
	}
	free(nic);
}

static struct fid_nic *
nic_alloc(void)
{
	struct fid_nic *nic = calloc(1, sizeof(*nic));

	if (nic == NULL)
		return NULL;
	nic->fid.fclass = FI_CLASS_NIC;
	nic->fid.ops = &dfi_nic_ops;
	nic->device_attr = calloc(1, sizeof(*nic->device_attr));
	nic->bus_attr = calloc(1, sizeof(*nic->bus_attr));
	nic->link_attr = calloc(1, sizeof(*nic->link_attr));
	if (nic->device_attr == NULL || nic->bus_attr == NULL || nic->link_attr == NULL) {
		nic_free(nic);
		return NULL;
	}
	return nic;
}

/* strdup() that keeps NULL and reports failure through *ok. */
static char *
dup_str(const char *s, bool *ok)
{
	char *d;

	if (s == NULL)
		return NULL;
	d = strdup(s);
	if (d == NULL)
		*ok = false;
	return d;
}

static char *
hex_id(const char *bus_info, const char *key, bool *ok)
{
	char buf[16];
	const char *p;
	unsigned int v;

	if (bus_info == NULL || (p = strstr(bus_info, key)) == NULL ||
	    sscanf(p + strlen(key), "%x", &v) != 1)
		return NULL;
	snprintf(buf, sizeof(buf), "0x%04x", v);
	return dup_str(buf, ok);
}

/* fi_nic(3): the speed is the active data rate, so 0 while the link is down
 * or its speed unknown. */
static void
nic_fill_link(struct fi_link_attr *link, uint16_t port_id)
{
	struct rte_eth_link eth_link;

	if (rte_eth_link_get_nowait(port_id, &eth_link) != 0) {
		link->state = FI_LINK_UNKNOWN;
		link->speed = 0;
		return;
	}
	link->state = eth_link.link_status == RTE_ETH_LINK_UP ? FI_LINK_UP : FI_LINK_DOWN;
	link->speed = link->state != FI_LINK_UP ||
		      eth_link.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN ? 0 :
		      (size_t)eth_link.link_speed * 1000000;
}

/* @return 0, the ethdev's error, or -FI_ENOMEM. */
static int
nic_fill(struct fid_nic *nic, const struct dfi_port *port)
{
	struct fi_device_attr *dev = nic->device_attr;
	struct fi_link_attr *link = nic->link_attr;
	char buf[RTE_ETHER_ADDR_FMT_SIZE > 64 ? RTE_ETHER_ADDR_FMT_SIZE : 64];
	struct rte_eth_dev_info info;
	const struct rte_bus *bus;
	struct rte_pci_addr pci;
	const char *dev_name;
	bool ok = true;
	int ret;

	ret = rte_eth_dev_info_get(port->port_id, &info);
	if (ret != 0) {
		DFI_WARN(FI_LOG_CORE, "%s: rte_eth_dev_info_get: %s", port->name,
			 rte_strerror(-ret));
		return ret;
	}
	dev_name = rte_dev_name(info.device);
	bus = rte_dev_bus(info.device);

	dev->name = dup_str(dev_name, &ok);
	dev->driver = dup_str(info.driver_name, &ok);
	if (rte_eth_dev_fw_version_get(port->port_id, buf, sizeof(buf)) == 0)
		dev->firmware = dup_str(buf, &ok);

	if (bus != NULL && strcmp(rte_bus_name(bus), "pci") == 0 &&
	    rte_pci_addr_parse(dev_name, &pci) == 0) {
		nic->bus_attr->bus_type = FI_BUS_PCI;
		nic->bus_attr->attr.pci.domain_id = (uint16_t)pci.domain;
		nic->bus_attr->attr.pci.bus_id = pci.bus;
		nic->bus_attr->attr.pci.device_id = pci.devid;
		nic->bus_attr->attr.pci.function_id = pci.function;
		dev->vendor_id = hex_id(rte_dev_bus_info(info.device), "vendor_id=", &ok);
		dev->device_id = hex_id(rte_dev_bus_info(info.device), "device_id=", &ok);
		if (ok)
			ok = dfi_ib_dev_complete(&pci, dev) == 0;
	} else {
		nic->bus_attr->bus_type = FI_BUS_UNKNOWN;
	}

	rte_ether_format_addr(buf, sizeof(buf), dfi_port_mac(port));
	link->address = dup_str(buf, &ok);
	link->network_type = dup_str("Ethernet", &ok);
	link->mtu = port->mtu;
	nic_fill_link(link, port->port_id);
	return ok ? 0 : -FI_ENOMEM;
}

int
dfi_nic_create(const struct dfi_port *port, struct fid_nic **out)
{
	struct fid_nic *nic = nic_alloc();
	int ret;

	*out = NULL;
	if (nic == NULL)
		return -FI_ENOMEM;
	ret = nic_fill(nic, port);
	if (ret != 0)
		goto err_free;
	*out = nic;
	return 0;

err_free:
	nic_free(nic);
	return ret;
}

static int
nic_close(struct fid *fid)
{
	nic_free(container_of(fid, struct fid_nic, fid));
	return 0;
}

static struct fid_nic *
nic_dup(const struct fid_nic *src)
{
	struct fid_nic *nic = nic_alloc();
	bool ok = true;

	if (nic == NULL)
		return NULL;
	nic->fid = src->fid;
	nic->fid.ops = &dfi_nic_ops;
	if (src->device_attr != NULL) {
		nic->device_attr->name = dup_str(src->device_attr->name, &ok);
		nic->device_attr->device_id = dup_str(src->device_attr->device_id, &ok);
		nic->device_attr->device_version = dup_str(src->device_attr->device_version, &ok);
		nic->device_attr->vendor_id = dup_str(src->device_attr->vendor_id, &ok);
		nic->device_attr->driver = dup_str(src->device_attr->driver, &ok);
		nic->device_attr->firmware = dup_str(src->device_attr->firmware, &ok);
	}
	if (src->bus_attr != NULL)
		*nic->bus_attr = *src->bus_attr;
	if (src->link_attr != NULL) {
		*nic->link_attr = *src->link_attr;
		nic->link_attr->address = dup_str(src->link_attr->address, &ok);
		nic->link_attr->network_type = dup_str(src->link_attr->network_type, &ok);
	}
	/* prov_attr stays NULL: the provider attaches nothing to a nic. */
	if (!ok) {
		nic_free(nic);
		return NULL;
	}
	return nic;
}

static int
nic_control(struct fid *fid, int command, void *arg)
{
	struct fid_nic **dup = arg;

	if (command != FI_DUP)
		return -FI_ENOSYS;
	if (arg == NULL)
		return -FI_EINVAL;
	*dup = nic_dup(container_of(fid, struct fid_nic, fid));
	return *dup != NULL ? 0 : -FI_ENOMEM;
}

/* Appends to the NUL-terminated buf, which holds len more bytes. */
static void
nic_appendf(char *buf, size_t *room, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;
	int n;

	if (*room <= 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + used, *room, fmt, ap);
	va_end(ap);
	*room = n < 0 || (size_t)n >= *room ? 1 : *room - (size_t)n;
}

static const char *
link_state_str(enum fi_link_state state)
{
	switch (state) {
	case FI_LINK_UP:
		return "FI_LINK_UP";
	case FI_LINK_DOWN:
		return "FI_LINK_DOWN";
	default:
		return "FI_LINK_UNKNOWN";
	}
}

/* Same layout as libfabric's own nic printer; "(null)" for absent strings. */
#define S(x) ((x) != NULL ? (x) : "(null)")

static int
nic_tostr(const struct fid *fid, char *buf, size_t len)
{
	const struct fid_nic *nic = container_of(fid, const struct fid_nic, fid);
	const struct fi_device_attr *dev = nic->device_attr;
	const struct fi_bus_attr *bus = nic->bus_attr;
	const struct fi_link_attr *link = nic->link_attr;
	size_t room = len;

	if (buf == NULL || len == 0)
		return -FI_EINVAL;
	nic_appendf(buf, &room, "    nic:\n");
	if (dev != NULL)
		nic_appendf(buf, &room, "        fi_device_attr:\n"
			    "            name: %s\n"
			    "            device_id: %s\n"
			    "            device_version: %s\n"
			    "            vendor_id: %s\n"
			    "            driver: %s\n"
			    "            firmware: %s\n",
			    S(dev->name), S(dev->device_id), S(dev->device_version),
			    S(dev->vendor_id), S(dev->driver), S(dev->firmware));
	if (bus != NULL && bus->bus_type == FI_BUS_PCI)
		nic_appendf(buf, &room, "        fi_bus_attr:\n"
			    "            bus_type: FI_BUS_PCI\n"
			    "            fi_pci_attr:\n"
			    "                domain_id: %u\n"
			    "                bus_id: %u\n"
			    "                device_id: %u\n"
			    "                function_id: %u\n",
			    bus->attr.pci.domain_id, bus->attr.pci.bus_id,
			    bus->attr.pci.device_id, bus->attr.pci.function_id);
	else if (bus != NULL)
		nic_appendf(buf, &room, "        fi_bus_attr:\n"
			    "            bus_type: FI_BUS_UNKNOWN\n");
	if (link != NULL)
		nic_appendf(buf, &room, "        fi_link_attr:\n"
			    "            address: %s\n"
			    "            mtu: %zu\n"
			    "            speed: %zu\n"
			    "            state: %s\n"
			    "            network_type: %s\n",
			    S(link->address), link->mtu, link->speed,
			    link_state_str(link->state), S(link->network_type));
	return 0;
}
