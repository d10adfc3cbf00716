/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/* TCP control channel of the pingpong benchmark. */

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ctrl.h"

int
pp_ctrl_listen(uint16_t port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port) };
	int lfd, one = 1;

	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		return -1;
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) != 0 || listen(lfd, 1) != 0) {
		fprintf(stderr, "fi_dpdk_pingpong: control port %u: %s\n", port, strerror(errno));
		close(lfd);
		return -1;
	}
	return lfd;
}

int
pp_ctrl_accept_wait(int lfd, int timeout_ms)
{
	struct pollfd pfd = { .fd = lfd, .events = POLLIN };
	struct timespec now, end;
	int fd, n, one = 1;
	long left = timeout_ms;

	/* a signal ends poll() whatever SA_RESTART says, and net_tap sends
	 * the process one as frames arrive (its rx trigger): wait on */
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += timeout_ms / 1000;
	end.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	while ((n = poll(&pfd, 1, (int)left)) < 0 && errno == EINTR) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		left = (end.tv_sec - now.tv_sec) * 1000 + (end.tv_nsec - now.tv_nsec) / 1000000;
		if (left < 0)
			left = 0;
	}
	if (n != 1)
		return -1;
	fd = accept(lfd, NULL, NULL);
	if (fd >= 0)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

int
pp_ctrl_accept(uint16_t port, int timeout_s)
{
	int lfd = pp_ctrl_listen(port), fd;

	if (lfd < 0)
		return -1;
	fd = pp_ctrl_accept_wait(lfd, timeout_s * 1000);
	if (fd < 0)
		fprintf(stderr, "fi_dpdk_pingpong: no client within %d s\n", timeout_s);
	close(lfd);
	return fd;
}

int
pp_ctrl_connect(const char *host, uint16_t port, int timeout_s)
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res;
	char service[8];
	int fd, one = 1, tries;

	snprintf(service, sizeof(service), "%u", port);
	if (getaddrinfo(host, service, &hints, &res) != 0) {
		fprintf(stderr, "fi_dpdk_pingpong: cannot resolve %s\n", host);
		return -1;
	}
	/* every 10 ms: two processes started together are both some 0.5 s in
	 * their start, and a client that tried every 100 ms waited 50 ms on
	 * average past the server's listen */
	for (tries = 0; tries < timeout_s * 100; tries++) {
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd >= 0 && connect(fd, res->ai_addr, res->ai_addrlen) == 0) {
			freeaddrinfo(res);
			setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
			return fd;
		}
		if (fd >= 0)
			close(fd);
		usleep(10000);
	}
	freeaddrinfo(res);
	fprintf(stderr, "fi_dpdk_pingpong: no server at %s:%u within %d s\n", host, port,
		timeout_s);
	return -1;
}

static int
full_io(int fd, void *buf, size_t len, int is_send)
{
	uint8_t *p = buf;
	ssize_t n;

	while (len > 0) {
		n = is_send ? send(fd, p, len, MSG_NOSIGNAL) : recv(fd, p, len, 0);
		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
pp_ctrl_send(int fd, const void *buf, uint32_t len)
{
	uint32_t be = htonl(len);

	if (full_io(fd, &be, sizeof(be), 1) != 0)
		return -1;
	return full_io(fd, (void *)(uintptr_t)buf, len, 1);
}

int
pp_ctrl_recv(int fd, void *buf, uint32_t size)
{
	uint32_t len;

	if (full_io(fd, &len, sizeof(len), 0) != 0)
		return -1;
	len = ntohl(len);
	if (len > size)
		return -1;
	if (full_io(fd, buf, len, 0) != 0)
		return -1;
	return (int)len;
}

int
pp_ctrl_sync(int fd)
{
	char c = 's';

	if (pp_ctrl_send(fd, &c, 1) != 0)
		return -1;
	return pp_ctrl_recv(fd, &c, 1) == 1 ? 0 : -1;
}

int
pp_ctrl_pending(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, 0) == 1;
}
