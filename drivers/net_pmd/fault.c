/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* Seeded fault injection on a port's frames (FI_DPDK_FAULT). */

#include <stdlib.h>
#include <string.h>

#include "dfi.h"
#include "fault.h"
#include "net_log.h"

/*
 * Each direction has its own random stream: the transmit side runs under
 * the port's tx lock and the receive side under its rx lock, which threads
 * driving different endpoints of the port hold at once.
 */
struct dfi_fault {
	uint64_t state[DFI_FAULT_DIRS];		/* xorshift64* */
	uint64_t threshold[DFI_FAULT_DIRS][DFI_FAULT_KINDS];	/* P * 2^64 */
	struct rte_mbuf *held[DFI_FAULT_DIRS];	/* reordered: goes out after the next */
	struct rte_mempool *pool;		/* for duplicates, and corrupted copies */
	struct dfi_fault_stats stats;
};

static const char *const kind_names[DFI_FAULT_KINDS] = {
	[DFI_FAULT_DROP] = "drop",
	[DFI_FAULT_DUP] = "dup",
	[DFI_FAULT_REORDER] = "reorder",
	[DFI_FAULT_CORRUPT] = "corrupt",
};

static uint64_t
next_rand(struct dfi_fault *f, enum dfi_fault_dir dir)
{
	uint64_t s = f->state[dir];

	s ^= s >> 12;
	s ^= s << 25;
	s ^= s >> 27;
	f->state[dir] = s;
	return s * 0x2545f4914f6cdd1dULL;
}

static bool
happens(struct dfi_fault *f, enum dfi_fault_dir dir, enum dfi_fault_kind kind)
{
	uint64_t t = f->threshold[dir][kind];

	if (t == 0 || next_rand(f, dir) >= t)
		return false;
	f->stats.count[dir][kind]++;
	return true;
}

/* key=value for one kind in one or both directions; 0 or -FI_EINVAL. */
static int
parse_prob(struct dfi_fault *f, const char *key, const char *value)
{
	int dir_lo = DFI_FAULT_TX, dir_hi = DFI_FAULT_RX, k, d;
	char *end;
	double p;

	if (strncmp(key, "tx_", 3) == 0) {
		dir_hi = DFI_FAULT_TX;
		key += 3;
	} else if (strncmp(key, "rx_", 3) == 0) {
		dir_lo = DFI_FAULT_RX;
		key += 3;
	}
	for (k = 0; k < DFI_FAULT_KINDS && strcmp(key, kind_names[k]) != 0; k++)
		;
	p = strtod(value, &end);
	if (k == DFI_FAULT_KINDS || end == value || *end != '\0' || !(p >= 0 && p <= 1))
		return -FI_EINVAL;
	for (d = dir_lo; d <= dir_hi; d++)
		f->threshold[d][k] = p >= 1 ? UINT64_MAX : (uint64_t)(p * 18446744073709551616.0);
	return 0;
}

int
dfi_fault_create(const char *spec, uint16_t port_id, struct rte_mempool *pool,
		 struct dfi_fault **fault)
{
	struct dfi_fault *f;
	char *copy, *tok, *save = NULL, *eq, *end;
	uint64_t seed = 1, any = 0;
	int ret = 0, d, k;

	*fault = NULL;
	if (spec == NULL || spec[0] == '\0')
		return 0;
	f = calloc(1, sizeof(*f));
	copy = strdup(spec);
	if (f == NULL || copy == NULL) {
		free(f);
		free(copy);
		return -FI_ENOMEM;
	}
	for (tok = strtok_r(copy, ",", &save); tok != NULL && ret == 0;
	     tok = strtok_r(NULL, ",", &save)) {
		eq = strchr(tok, '=');
		if (eq == NULL) {
			ret = -FI_EINVAL;
			break;
		}
		*eq++ = '\0';
		if (strcmp(tok, "seed") == 0) {
			seed = strtoull(eq, &end, 0);
			ret = end == eq || *end != '\0' ? -FI_EINVAL : 0;
		} else {
			ret = parse_prob(f, tok, eq);
		}
	}
	free(copy);
	if (ret != 0) {
		NET_LOG(ERR, "FI_DPDK_FAULT '%s': expected seed=N and [tx_|rx_](drop|dup|reorder|"
			"corrupt)=P with P in [0, 1]", spec);
		free(f);
		return ret;
	}
	for (d = 0; d < DFI_FAULT_DIRS; d++)
		for (k = 0; k < DFI_FAULT_KINDS; k++)
			any |= f->threshold[d][k];
	if (any == 0) {
		free(f);
		return 0;
	}
	/* a distinct stream per port and direction, never the all-zero state */
	for (d = 0; d < DFI_FAULT_DIRS; d++)
		f->state[d] = (seed ^ ((uint64_t)port_id << 48) ^ ((uint64_t)d << 40)) *
			      0x9e3779b97f4a7c15ULL | 1;
	f->pool = pool;
	NET_LOG(NOTICE, "port %u: fault injection '%s'", port_id, spec);
	*fault = f;
	return 0;
}

void
dfi_fault_free(struct dfi_fault *f)
{
	int d;

	if (f == NULL)
		return;
	for (d = 0; d < DFI_FAULT_DIRS; d++)
		rte_pktmbuf_free(f->held[d]);
	free(f);
}

/*
 * Flips one bit of the first segment, headers and payload alike, as a wire
 * would. The frame is the wire's alone: a sender that sends a packet again
 * keeps its own copy of it (RDM's kept injects), never a reference.
 */
static void
corrupt(struct dfi_fault *f, enum dfi_fault_dir dir, struct rte_mbuf *m)
{
	uint64_t r = next_rand(f, dir);
	uint32_t len = rte_pktmbuf_data_len(m);

	if (len > 0)
		rte_pktmbuf_mtod(m, uint8_t *)[(r >> 8) % len] ^= (uint8_t)(1u << (r & 7));
}

uint16_t
dfi_fault_apply(struct dfi_fault *f, enum dfi_fault_dir dir, struct rte_mbuf **pkts, uint16_t n,
		struct rte_mbuf **out)
{
	struct rte_mbuf *m, *copy, *held = f->held[dir];
	uint16_t i, nb = 0;

	f->held[dir] = NULL;
	for (i = 0; i < n; i++) {
		m = pkts[i];
		f->stats.frames[dir]++;
		if (happens(f, dir, DFI_FAULT_DROP)) {
			rte_pktmbuf_free(m);
			continue;
		}
		copy = NULL;
		if (happens(f, dir, DFI_FAULT_DUP))
			copy = rte_pktmbuf_copy(m, f->pool, 0, UINT32_MAX);
		if (happens(f, dir, DFI_FAULT_CORRUPT))
			corrupt(f, dir, m);
		if (f->held[dir] == NULL && happens(f, dir, DFI_FAULT_REORDER))
			f->held[dir] = m;
		else
			out[nb++] = m;
		if (copy != NULL)
			out[nb++] = copy;
	}
	/* what was held back goes after the frames that overtook it */
	if (held != NULL)
		out[nb++] = held;
	return nb;
}

struct rte_mbuf *
dfi_fault_release(struct dfi_fault *f, enum dfi_fault_dir dir)
{
	struct rte_mbuf *m = f->held[dir];

	f->held[dir] = NULL;
	return m;
}

void
dfi_fault_stats(const struct dfi_fault *f, struct dfi_fault_stats *stats)
{
	if (f == NULL)
		memset(stats, 0, sizeof(*stats));
	else
		*stats = f->stats;
}
