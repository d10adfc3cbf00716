/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The pingpong control channel: a TCP connection (127.0.0.1 by default)
 * over which the two sides swap endpoint names and synchronise, outside
 * the fabric being measured, as fi_pingpong does.
 */

#ifndef _PP_CTRL_H_
#define _PP_CTRL_H_

#include <stddef.h>
#include <stdint.h>

/** Server: listens on port and accepts one client. @return the socket, or -1. */
int pp_ctrl_accept(uint16_t port, int timeout_s);

/** The two halves of pp_ctrl_accept(), for a server with work to do meanwhile:
 *  @return the listening socket, or the connection once one comes; -1. */
int pp_ctrl_listen(uint16_t port);
int pp_ctrl_accept_wait(int lfd, int timeout_ms);

/** Client: connects, retrying until timeout_s. @return the socket, or -1. */
int pp_ctrl_connect(const char *host, uint16_t port, int timeout_s);

/** Sends a length-prefixed blob. @return 0, or -1. */
int pp_ctrl_send(int fd, const void *buf, uint32_t len);

/** Receives a length-prefixed blob into buf. @return its length, or -1. */
int pp_ctrl_recv(int fd, void *buf, uint32_t size);

/** Both sides call it: returns once the other side has called it too. @return 0 or -1. */
int pp_ctrl_sync(int fd);

/** @return 1 when the peer sent something or closed, 0 otherwise (non-blocking). */
int pp_ctrl_pending(int fd);

#endif /* _PP_CTRL_H_ */
